import { Logger } from '@nestjs/common';

interface Cause {
  /** When the cause was last written. */
  at: number;
  /** Occurrences since then, not written. */
  unwritten: number;
}

/**
 * A warning that may repeat many times a second (the database down under load, a client sending
 * bad tokens) is written once when its cause first appears, then at most once per `intervalMs`,
 * with the number of occurrences it stands for (`count`). Causes are few and fixed (a reason, not
 * a request), so the map stays small.
 */
export class ThrottledLog {
  private readonly causes = new Map<string, Cause>();

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  warn(cause: string, fields: Record<string, unknown> = {}): void {
    const now = this.now();
    const seen = this.causes.get(cause);
    if (seen && now - seen.at < this.intervalMs) {
      seen.unwritten++;
      return;
    }
    const count = (seen?.unwritten ?? 0) + 1;
    this.causes.set(cause, { at: now, unwritten: 0 });
    this.logger.warn({ msg: cause, count, ...fields });
  }
}
