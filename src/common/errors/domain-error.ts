import type { HttpStatus } from '@nestjs/common';

/**
 * A refusal that the domain decided on: a missing record, a broken rule, a bad
 * state. Transports turn it into `{detail, code, ...extra}` (REST) or an
 * `isError` tool result (MCP). A module's errors extend `DomainErrorOf(table)`,
 * whose table gives every code its HTTP status.
 */
export abstract class DomainError<C extends string = string> extends Error {
  protected constructor(
    readonly code: C,
    readonly detail: string,
    /** Fields a client can act on (for example who holds a lock), sent beside `detail` and `code`. */
    readonly extra?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = new.target.name;
  }

  abstract get httpStatus(): number;
}

/**
 * Every code of a module with the status it answers. Typed as a record over
 * the code enum, so a code added without a status does not compile.
 */
export type StatusTable<C extends string> = Readonly<Record<C, HttpStatus>>;

/** The base class of a module's errors: the HTTP status of each comes from `statuses`. */
export function DomainErrorOf<C extends string>(statuses: StatusTable<C>) {
  abstract class ModuleError extends DomainError<C> {
    get httpStatus(): number {
      return statuses[this.code];
    }
  }
  return ModuleError;
}

export function assertUnreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
