import type { NextFunction, Request, Response } from 'express';
import { answerLeaving, requestScope, runInRequestScope } from '../../../libs/tenancy';
import { holdAnswer } from '../http/answer-hold';
import { DATABASE_RETRY_AFTER_S, deadlineResponse } from './error-response';

/** How often the open requests are checked against their deadlines. */
const CHECK_EVERY_MS = 200;

interface Watched {
  res: Response;
  scope: { readonly deadline?: number };
}

/** Requests, answered or not, until the next check drops them: adding one is all a request pays. */
const watched = new Set<Watched>();
let checker: NodeJS.Timeout | undefined;

/**
 * Opens each request's scope with its deadline, `timeoutMs` from now, and answers 503
 * `DEADLINE_EXCEEDED` if nothing was sent by then (checked every 200 ms for all requests at once,
 * so a request costs no timer of its own). Database work of the request is bounded to end by the
 * deadline itself (`TenantDb`); this is the backstop for anything else that hangs. A long-poll
 * moves its request's deadline (`extendRequestDeadline`), and a stream that has sent its headers
 * is never cut. Each answer waits for the work its request held for it (`holdAnswer`).
 */
export function requestDeadlines(timeoutMs: number) {
  return (_req: Request, res: Response, next: NextFunction) =>
    runInRequestScope(() => {
      watch(res);
      holdAnswer(res);
      next();
    }, Date.now() + timeoutMs);
}

function watch(res: Response) {
  const scope = requestScope();
  if (!scope) return;
  watched.add({ res, scope });
  if (!checker) {
    checker = setInterval(check, CHECK_EVERY_MS);
    checker.unref();
  }
}

function check() {
  const now = Date.now();
  for (const entry of watched) {
    const { res, scope } = entry;
    // An answer waiting for its held work (answer-hold.ts) has been given: it only has to leave.
    if (res.headersSent || res.writableEnded || res.destroyed || answerLeaving(scope)) watched.delete(entry);
    else if ((scope.deadline ?? Infinity) <= now) {
      watched.delete(entry);
      const { status, body } = deadlineResponse();
      res.status(status).set('Retry-After', String(DATABASE_RETRY_AFTER_S)).json(body);
    }
  }
  if (watched.size === 0 && checker) {
    clearInterval(checker);
    checker = undefined;
  }
}
