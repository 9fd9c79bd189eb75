/**
 * The one seeded random generator of the test suites (mulberry32): small, and
 * the same numbers on every run for the same seed, so a fuzz suite sends the
 * same requests each time and a failure can be replayed.
 */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  /** A number in [0, 1). */
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** A whole number in [0, n). */
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const sample = <T>(items: readonly T[], n: number): T[] => Array.from({ length: n }, () => pick(items));
  return { next, int, pick, sample };
}

export type Random = ReturnType<typeof seededRandom>;

/** The seed of a fuzz suite: BATON_FUZZ_SEED=<n> replays another set of inputs, otherwise the suite's own. */
export function fuzzSeed(fallback: number): number {
  return Number(process.env.BATON_FUZZ_SEED ?? fallback);
}

/** A seed of its own for each named part of a suite (FNV-1a over the name), so adding a part leaves the others' inputs as they were. */
export function seedFor(seed: number, label: string): number {
  let h = seed;
  for (const c of label) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}
