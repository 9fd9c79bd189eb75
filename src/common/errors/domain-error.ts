/**
 * A refusal that the domain decided on: a missing record, a broken rule, a bad
 * state. Each module extends it with its own code enum and maps every code to
 * an HTTP status in an exhaustive switch, so a new code without a status is a
 * compile error. Transports turn it into `{detail, code}` (REST) or an
 * `isError` tool result (MCP).
 */
export abstract class DomainError<C extends string = string> extends Error {
  protected constructor(
    readonly code: C,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = new.target.name;
  }

  abstract get httpStatus(): number;

  /** Extra fields a client can act on (for example who holds a lock). */
  get extra(): Record<string, unknown> | undefined {
    return undefined;
  }
}

export function assertUnreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
