import { DomainError } from '../../common/errors/domain-error';

/**
 * One item of a sprint-batch was refused, so the whole batch was: the
 * item's own refusal (status, code, fields) with its index in front.
 */
export class SprintBatchError extends DomainError<string> {
  constructor(
    readonly index: number,
    private readonly inner: DomainError,
  ) {
    super(inner.code, `items[${index}]: ${inner.detail}; nothing in the batch was applied`, { ...inner.extra, index }, { cause: inner });
  }

  get httpStatus(): number {
    return this.inner.httpStatus;
  }
}
