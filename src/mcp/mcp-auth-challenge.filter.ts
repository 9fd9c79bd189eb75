import { ArgumentsHost, Catch, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { HttpExceptionFilter } from '../common/errors/http-exception.filter';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/**
 * A hosted /mcp request refused for its credential (401) tells the client where to get one
 * (RFC 9728 §5.1, MCP authorization): `WWW-Authenticate: Bearer resource_metadata="..."`, the
 * protected resource metadata of /mcp, from which an MCP client finds Baton's authorization
 * server. A token that was presented and refused adds `error="invalid_token"` (RFC 6750 §3.1).
 * The body stays Baton's `{detail}`.
 */
@Catch()
@Injectable()
export class McpAuthChallengeFilter extends HttpExceptionFilter {
  private readonly challenge: string | undefined;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super();
    const base = config.baseUrl.replace(/\/+$/, '');
    this.challenge = config.isHosted ? `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` : undefined;
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (this.challenge && host.getType() === 'http' && exception instanceof DomainError && exception.httpStatus === 401) {
      const request = host.switchToHttp().getRequest<Request>();
      const response = host.switchToHttp().getResponse<Response>();
      if (!response.headersSent) response.setHeader('WWW-Authenticate', request.headers.authorization ? `${this.challenge}, error="invalid_token"` : this.challenge);
    }
    super.catch(exception, host);
  }
}
