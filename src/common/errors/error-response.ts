import { HttpException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { randomUUID } from 'node:crypto';
import { isDatabaseBusy, isDatabaseUnavailable, OwnDatabaseRefusedError, TenantMovingError, UnknownTenantServerError } from '../../../libs/tenancy';
import { DomainError } from './domain-error';

export interface ErrorResponse {
  status: number;
  body: { detail: string; code?: string; error_id?: string; [key: string]: unknown };
  /** Set for unexpected errors: the stack is logged under body.error_id. */
  unexpected?: Error;
  /** Headers the answer carries (`Retry-After` on a 429 or a 503). */
  headers?: Record<string, string>;
}

/** Seconds a client is asked to wait before trying again after the database was unavailable. */
export const DATABASE_RETRY_AFTER_S = 2;

/** Postgres error classes that only bad input can cause (invalid text representation, value too long, ...). */
const PG_INPUT_ERRORS: Record<string, string> = {
  '22P02': 'a value has an invalid format',
  '22001': 'a value is too long',
  '22003': 'a number is out of range',
  '22007': 'a date or time has an invalid format',
  '22008': 'a date or time is out of range',
  '22021': 'a text value contains an invalid byte sequence',
  '54000': 'a value is too large',
};

/** Postgres errors after which the whole unit of work was rolled back and may simply be sent again: deadlock_detected, serialization_failure. */
const PG_RETRY_ERRORS = new Set(['40P01', '40001']);

/** A request that reached its deadline (`SERVICE_REQUEST_TIMEOUT_S`) before it was answered. */
export function deadlineResponse(): ErrorResponse {
  return {
    status: 503,
    body: {
      detail: 'the request did not finish in time (the database is slow or unavailable); it may not have taken effect: try again in a few seconds',
      code: 'DEADLINE_EXCEEDED',
      retryable: true,
    },
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_S) },
  };
}

/**
 * The one mapping from any thrown value to what a client sees. Used by the
 * HTTP exception filter and (through `detail`) by MCP tool results.
 */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof DomainError) {
    const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    return {
      status: error.httpStatus,
      body: { detail: error.detail, code: error.code, ...error.extra },
      ...(retryAfter ? { headers: { 'Retry-After': String(retryAfter) } } : {}),
    };
  }
  if (error instanceof ThrottlerException) {
    return { status: 429, body: { detail: 'rate limit exceeded: too many requests for this token, retry later', code: 'RATE_LIMITED' } };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    let detail = Array.isArray(message) ? message.join('; ') : typeof message === 'string' && message !== '' ? message : error.message;
    if (status === 404 && /^Cannot [A-Z]+ /.test(detail)) detail = `no such route: ${detail.replace(/^Cannot /, '')}`;
    return { status, body: { detail } };
  }
  const pgCode = (error as { code?: unknown; driverError?: { code?: unknown } } | null)?.driverError?.code;
  if (typeof pgCode === 'string' && PG_INPUT_ERRORS[pgCode]) {
    return { status: 400, body: { detail: PG_INPUT_ERRORS[pgCode], code: 'INVALID_INPUT' } };
  }
  if ((error as { code?: unknown } | null)?.code === 'DEADLINE_EXCEEDED' && error instanceof Error) return deadlineResponse();
  if (error instanceof TenantMovingError) {
    return { status: 503, body: { detail: error.message, code: error.code, retryable: true }, headers: { 'Retry-After': String(error.retryAfterSeconds) } };
  }
  if (error instanceof OwnDatabaseRefusedError) return { status: 503, body: { detail: error.message, code: error.code, retryable: false } };
  // The message names the server (for the operator's log); the answer does not.
  if (error instanceof UnknownTenantServerError) {
    return {
      status: 503,
      body: { detail: "this workspace's database server is not in this instance's configuration; the operator must add it back", code: error.code, retryable: false },
    };
  }
  // The database chose this unit of work to break a deadlock, or could not serialize it: it was
  // rolled back whole, and the same request sent again will most likely go through.
  if (typeof pgCode === 'string' && PG_RETRY_ERRORS.has(pgCode)) {
    return {
      status: 503,
      body: { detail: 'the write met a concurrent one and was undone; try again', code: 'DATABASE_CONFLICT', retryable: true },
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_S) },
    };
  }
  // Up, but this workspace's connections (or SQLite's file) stayed taken for as long as the request could wait.
  if (isDatabaseBusy(error)) {
    return {
      status: 503,
      body: { detail: 'the database is busy with other work right now; try again in a few seconds', code: 'DATABASE_BUSY', retryable: true },
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_S) },
    };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { detail: 'the database is unavailable right now; try again in a few seconds', code: 'DATABASE_UNAVAILABLE', retryable: true },
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_S) },
    };
  }
  const errorId = randomUUID();
  return {
    status: 500,
    body: { detail: 'internal error', error_id: errorId },
    unexpected: error instanceof Error ? error : new Error(String(error)),
  };
}

/** The underlying error's message, for the log (never the request's data). */
export function reasonOf(error: unknown): string | undefined {
  const driver = (error as { driverError?: { message?: unknown } } | null)?.driverError;
  const message = driver?.message ?? (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message.slice(0, 200) : undefined;
}
