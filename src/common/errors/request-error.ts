import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from './domain-error';

export enum RequestErrorCode {
  InvalidInput = 'INVALID_INPUT',
  Unauthorized = 'UNAUTHORIZED',
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  RateLimited = 'RATE_LIMITED',
}

const STATUS: StatusTable<RequestErrorCode> = {
  [RequestErrorCode.InvalidInput]: HttpStatus.BAD_REQUEST,
  [RequestErrorCode.Unauthorized]: HttpStatus.UNAUTHORIZED,
  [RequestErrorCode.Forbidden]: HttpStatus.FORBIDDEN,
  [RequestErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [RequestErrorCode.RateLimited]: HttpStatus.TOO_MANY_REQUESTS,
};

/** Refusals that belong to no one module: bad input, missing credentials, unknown routes. */
export class RequestError extends DomainErrorOf(STATUS) {
  private constructor(
    code: RequestErrorCode,
    detail: string,
    /** Set on a 429: when the client may try again, in whole seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, detail);
  }

  static invalidInput(detail: string) {
    return new RequestError(RequestErrorCode.InvalidInput, detail);
  }

  static unauthorized(detail = 'a valid API token is required (Authorization: Bearer sk_service_...)') {
    return new RequestError(RequestErrorCode.Unauthorized, detail);
  }

  static forbidden(detail: string) {
    return new RequestError(RequestErrorCode.Forbidden, detail);
  }

  static notFound(detail: string) {
    return new RequestError(RequestErrorCode.NotFound, detail);
  }

  /** 429; the answer carries `Retry-After: retryAfterSeconds`. */
  static rateLimited(detail: string, retryAfterSeconds: number) {
    return new RequestError(RequestErrorCode.RateLimited, detail, Math.max(1, Math.ceil(retryAfterSeconds)));
  }
}
