import type { NextFunction, Request, Response } from 'express';
import { answerLeaving, requestScope, runInRequestScope } from '../../../libs/tenancy';
import { holdAnswer } from '../http/answer-hold';
import { DATABASE_RETRY_AFTER_S, deadlineResponse } from './error-response';

/** How often the open requests are checked against their deadlines. */
const CHECK_EVERY_MS = 200;

interface Watched {
  res: Response;
  scope: { readonly deadline?: number };
  /** The check at which a request still open after its first check falls due (`dueAt`). */
  slot?: number;
}

/** Requests begun since the last check, answered or not: adding one is all a request pays. */
let young = new Set<Watched>();
/** Requests still open at a check, by the check at which their deadline falls (`dueAt`). */
const bySlot = new Map<number, Set<Watched>>();
let slotted = 0;
/** The last check made; the slots up to it have been seen. */
let lastSlot = 0;
let checker: NodeJS.Timeout | undefined;

/**
 * Opens each request's scope with its deadline, `timeoutMs` from now, and answers 503
 * `DEADLINE_EXCEEDED` if nothing was sent by then (checked every 200 ms for all requests at once,
 * so a request costs no timer of its own). Database work of the request is bounded to end by the
 * deadline itself (`TenantDb`); this is the backstop for anything else that hangs. A long-poll
 * moves its request's deadline (`extendRequestDeadline`), and a stream that has sent its headers
 * is never cut. Each answer waits for the work its request held for it (`holdAnswer`).
 *
 * A check looks only at the requests begun since the one before (most are answered by then) and
 * at those whose deadline has come: a request still open is filed under the check its deadline
 * falls at, leaves that file when it closes, and is filed again later if its deadline moved. So
 * ten thousand waiting long-polls cost a check nothing until their deadlines come.
 */
export function requestDeadlines(timeoutMs: number) {
  return (_req: Request, res: Response, next: NextFunction) =>
    runInRequestScope(() => {
      watch(res);
      holdAnswer(res);
      next();
    }, Date.now() + timeoutMs);
}

/** Requests watched now: begun since the last check, and filed under a later check (still open at one). */
export function watchedRequests(): { begun: number; filed: number } {
  return { begun: young.size, filed: slotted };
}

function watch(res: Response) {
  const scope = requestScope();
  if (!scope) return;
  young.add({ res, scope });
  if (!checker) {
    lastSlot = slotOf(Date.now());
    checker = setInterval(check, CHECK_EVERY_MS);
    checker.unref();
  }
}

/** The check at or after `time` (epoch ms). */
const dueAt = (time: number) => Math.ceil(time / CHECK_EVERY_MS);
/** The last check at or before `time`. */
const slotOf = (time: number) => Math.floor(time / CHECK_EVERY_MS);

function check() {
  const now = Date.now();
  const slot = slotOf(now);
  const begun = young;
  young = new Set();
  for (const entry of begun) {
    if (answered(entry)) continue;
    if (!expire(entry, now)) {
      file(entry);
      entry.res.once('close', () => unfile(entry));
    }
  }
  for (let due = lastSlot + 1; due <= slot; due++) {
    const entries = bySlot.get(due);
    if (!entries) continue;
    bySlot.delete(due);
    slotted -= entries.size;
    for (const entry of entries) {
      entry.slot = undefined;
      if (!answered(entry) && !expire(entry, now)) file(entry);
    }
  }
  lastSlot = Math.max(lastSlot, slot);
  if (young.size === 0 && slotted === 0 && checker) {
    clearInterval(checker);
    checker = undefined;
  }
}

/** An answer waiting for its held work (answer-hold.ts) has been given: it only has to leave. */
function answered({ res, scope }: Watched): boolean {
  return res.headersSent || res.writableEnded || res.destroyed || answerLeaving(scope);
}

/** Answers 503 if the request's deadline has come; whether it did. */
function expire({ res, scope }: Watched, now: number): boolean {
  if ((scope.deadline ?? Infinity) > now) return false;
  const { status, body } = deadlineResponse();
  res.status(status).set('Retry-After', String(DATABASE_RETRY_AFTER_S)).json(body);
  return true;
}

/** Files an open request under the check its deadline falls at; one with no deadline is not watched. */
function file(entry: Watched) {
  const deadline = entry.scope.deadline;
  if (deadline === undefined) return;
  // Never under a check already made, should the clock step back: that file would not be read again.
  const slot = Math.max(dueAt(deadline), lastSlot + 1);
  let entries = bySlot.get(slot);
  if (!entries) bySlot.set(slot, (entries = new Set()));
  entries.add(entry);
  entry.slot = slot;
  slotted++;
}

/** Takes a request that closed out of its file. */
function unfile(entry: Watched) {
  const slot = entry.slot;
  if (slot === undefined) return;
  entry.slot = undefined;
  const entries = bySlot.get(slot);
  if (!entries?.delete(entry)) return;
  slotted--;
  if (entries.size === 0) bySlot.delete(slot);
}
