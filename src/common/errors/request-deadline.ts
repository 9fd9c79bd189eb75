import type { NextFunction, Request, Response } from 'express';
import { requestDeadline, runInRequestScope } from '../../../libs/tenancy';
import { DATABASE_RETRY_AFTER_S, deadlineResponse } from './error-response';

/**
 * Opens each request's scope with its deadline, `timeoutMs` from now, and answers 503
 * `DEADLINE_EXCEEDED` if nothing was sent by then. Database work of the request is bounded to end
 * by the deadline itself (`TenantDb`); this is the backstop for anything else that hangs. A
 * long-poll moves its request's deadline (`extendRequestDeadline`), and a stream that has sent its
 * headers is never cut.
 */
export function requestDeadlines(timeoutMs: number) {
  return (_req: Request, res: Response, next: NextFunction) =>
    runInRequestScope(() => {
      watch(res);
      next();
    }, Date.now() + timeoutMs);
}

/** Runs in the request's scope, so the timer sees a deadline moved since. */
function watch(res: Response) {
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const left = (requestDeadline() ?? 0) - Date.now();
    if (left > 0) return void (timer = setTimeout(check, left));
    timer = undefined;
    if (res.headersSent || res.writableEnded) return;
    const { status, body } = deadlineResponse();
    res.status(status).set('Retry-After', String(DATABASE_RETRY_AFTER_S)).json(body);
  };
  timer = setTimeout(check, (requestDeadline() ?? 0) - Date.now());
  res.once('close', () => timer && clearTimeout(timer));
}
