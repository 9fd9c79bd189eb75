import { assertUnreachable, DomainError } from './domain-error';

export enum RequestErrorCode {
  InvalidInput = 'INVALID_INPUT',
  Unauthorized = 'UNAUTHORIZED',
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  RateLimited = 'RATE_LIMITED',
}

/** Refusals that belong to no one module: bad input, missing credentials, unknown routes. */
export class RequestError extends DomainError<RequestErrorCode> {
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
    const error = new RequestError(RequestErrorCode.RateLimited, detail);
    error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
    return error;
  }

  /** Set on a 429: when the client may try again, in whole seconds. */
  retryAfterSeconds?: number;

  get httpStatus(): number {
    switch (this.code) {
      case RequestErrorCode.InvalidInput:
        return 400;
      case RequestErrorCode.Unauthorized:
        return 401;
      case RequestErrorCode.Forbidden:
        return 403;
      case RequestErrorCode.NotFound:
        return 404;
      case RequestErrorCode.RateLimited:
        return 429;
      default:
        return assertUnreachable(this.code);
    }
  }
}
