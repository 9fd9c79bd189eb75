import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { ThrottledLog } from '../logging/throttled-log';
import { reasonOf, toErrorResponse } from './error-response';

/** Every HTTP error leaves as `{detail}` JSON; unexpected ones are logged with an error_id. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');
  private readonly outages = new ThrottledLog(this.logger);

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body, unexpected, headers } = toErrorResponse(exception);
    if (unexpected) this.logger.error({ msg: 'unexpected error', error_id: body.error_id, stack: unexpected.stack });
    else if (body.code === 'DATABASE_NOT_CONFIGURED')
      this.outages.warn('requests answered 503: a tenant server is missing from SERVICE_TENANT_DB_URLS', { code: body.code, reason: reasonOf(exception) });
    else if (body.code === 'DATABASE_CONFLICT' || body.code === 'TENANT_MOVING')
      this.outages.warn('requests answered 503: rolled back by a concurrent write or a tenant move, to be retried', { code: body.code, reason: reasonOf(exception) });
    else if (status === 503) this.outages.warn('requests answered 503: the database is unavailable', { code: body.code, reason: reasonOf(exception) });
    if (response.headersSent) {
      response.end();
      return;
    }
    if (headers) response.set(headers);
    response.status(status).json(body);
  }
}
