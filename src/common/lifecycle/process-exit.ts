/** How the process ends when an admin asks: closes the app (in-flight requests finish first), then exits with `code`. */
export type ExitHandler = (code: number) => Promise<void>;

let handler: ExitHandler | undefined;

/** Set by the entry point (src/main.ts), which owns the app; a test's in-process app sets none. */
export function onExitRequest(exit: ExitHandler): void {
  handler = exit;
}

/** Starts the exit after the current answer is on its way; false when this process has no way to exit itself. */
export function requestExit(code: number): boolean {
  const exit = handler;
  if (!exit) return false;
  setImmediate(() => void exit(code));
  return true;
}
