/** Where progress goes: stderr in the command, anything with `write` (and optionally `isTTY`, `columns`) in a test. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * A progress report for a run over `total` items: done / total, rate and ETA. On a terminal, one
 * bar redrawn in place (at most 10 times a second); elsewhere (a log file, a Kubernetes Job's
 * log), a plain line at every tenth of the way and at least every 10 s, so logs stay short.
 * `note` writes a line of its own (a failure) without breaking the bar.
 */
export class Progress {
  private done = 0;
  private readonly started: number;
  private lastDraw = 0;
  private lastLine = 0;
  private lastTenth = 0;
  private readonly tty: boolean;

  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly stream: ProgressStream = process.stderr,
    private readonly now: () => number = Date.now,
  ) {
    this.tty = Boolean(stream.isTTY);
    this.started = this.now();
    this.lastLine = this.started;
  }

  /** `n` more items done (one by default). */
  tick(n = 1): void {
    this.done += n;
    const now = this.now();
    if (this.tty) {
      if (now - this.lastDraw >= 100 || this.done === this.total) this.draw(now);
      return;
    }
    const tenth = Math.floor((this.done * 10) / Math.max(1, this.total));
    if (tenth > this.lastTenth || now - this.lastLine >= 10_000 || this.done === this.total) {
      this.lastTenth = tenth;
      this.lastLine = now;
      this.stream.write(`${this.status(now)}\n`);
    }
  }

  note(line: string): void {
    if (this.tty) this.stream.write(`\r\x1b[2K${line}\n`);
    else this.stream.write(`${line}\n`);
    if (this.tty && this.done > 0) this.draw(this.now());
  }

  /** Ends the bar's line on a terminal. */
  finish(): void {
    if (this.tty && this.total > 0) this.stream.write('\n');
  }

  /** `412/1000 tenants (41%) · 38.2/s · ETA 15s`. */
  status(now = this.now()): string {
    const seconds = Math.max(0.001, (now - this.started) / 1000);
    const rate = this.done / seconds;
    const left = this.total - this.done;
    const eta = this.done === 0 ? '?' : formatSeconds(left / rate);
    const percent = this.total === 0 ? 100 : Math.floor((this.done * 100) / this.total);
    return `${this.done}/${this.total} ${this.label} (${percent}%) · ${rate.toFixed(1)}/s · ETA ${eta}`;
  }

  private draw(now: number) {
    this.lastDraw = now;
    const text = this.status(now);
    const width = Math.max(10, Math.min(40, (this.stream.columns || 80) - text.length - 4));
    const filled = this.total === 0 ? width : Math.round((this.done / this.total) * width);
    this.stream.write(`\r\x1b[2K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${text}`);
  }
}

export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
