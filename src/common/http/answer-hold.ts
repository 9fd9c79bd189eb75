import type { Response } from 'express';
import { requestScope, settleBeforeAnswer } from '../../../libs/tenancy';

/**
 * Makes the request's answer wait for the work its handling asked to finish first
 * (`beforeAnswer` of libs/tenancy: a write's board version moved in Redis). Every answer ends with
 * `res.end` whatever wrote it — Nest's reply, the error filter, a handler holding `@Res()`, the
 * MCP transports — so the end is where it waits: by then every transaction of the request has
 * committed. An answer with nothing held ends at once, in the same turn.
 */
export function holdAnswer(res: Response): void {
  const scope = requestScope();
  if (!scope) return;
  const end = res.end;
  res.end = function (this: Response, ...args: unknown[]) {
    const held = settleBeforeAnswer(scope, true);
    if (!held) return (end as (...a: unknown[]) => Response).apply(this, args);
    void held.then(() => (end as (...a: unknown[]) => Response).apply(this, args));
    return this;
  } as Response['end'];
}
