export { type Backoff, backoffDelay } from './backoff';
export { type AttemptOutcome, realRetryClock, retry, type RetryClock, type RetryOptions, type RetryResult, type RetryStop } from './retry';
