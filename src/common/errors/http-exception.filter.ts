import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { toErrorResponse } from './error-response';

/** Every HTTP error leaves as `{detail}` JSON; unexpected ones are logged with an error_id. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body, unexpected } = toErrorResponse(exception);
    if (unexpected) this.logger.error({ msg: 'unexpected error', error_id: body.error_id, stack: unexpected.stack });
    if (response.headersSent) {
      response.end();
      return;
    }
    response.status(status).json(body);
  }
}
