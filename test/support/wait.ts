/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 50 ms until it answers something truthy, and returns that; throws after `timeoutMs`. */
export async function waitUntil<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number, what = 'condition'): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}
