import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { toErrorResponse } from '../../common/errors/error-response';
import { HttpExceptionFilter } from '../../common/errors/http-exception.filter';
import { HTML_PAGE_HEADERS } from '../../common/http/html-page';
import { refusedPage } from './magic-link.pages';

/**
 * A browser gets a refusal of the magic-link routes as a page it can read (the
 * link it followed, or the sign-in form it posted); an API client (Accept
 * JSON, or no preference) gets the usual `{detail}` JSON. Unexpected errors keep the JSON filter's logging.
 */
@Catch()
export class MagicLinkPageFilter implements ExceptionFilter {
  private readonly json = new HttpExceptionFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    if (!wantsPage(request) || response.headersSent) return this.json.catch(exception, host);
    const { status, body, unexpected, headers } = toErrorResponse(exception);
    if (unexpected) return this.json.catch(exception, host);
    response.set({ ...HTML_PAGE_HEADERS, ...headers });
    const title = status === 429 ? 'Too many requests' : 'Sign-in link refused';
    response.status(status).send(refusedPage(title, body.detail));
  }
}

/** A browser (opening the e-mailed link, posting the sign-in form) asks for HTML first; an API client for JSON, or for anything. */
export function wantsPage(request: Request): boolean {
  return request.accepts(['json', 'html']) === 'html';
}
