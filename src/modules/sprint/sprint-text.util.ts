/**
 * Words of titles: how near-duplicates are found, how slugs and nicknames are
 * made, and how changed files and commits are matched to items.
 */

/** Words that say nothing about which piece of work an item is (left out of slugs and nicknames). */
const STOPWORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'from',
  'in',
  'into',
  'is',
  'it',
  'its',
  'of',
  'on',
  'or',
  'so',
  'than',
  'that',
  'the',
  'then',
  'this',
  'to',
  'was',
  'when',
  'with',
  'without',
  'add',
  'adds',
  'added',
  'fix',
  'fixes',
  'fixed',
  'feat',
  'chore',
  'refactor',
  'make',
  'use',
  'should',
  'must',
  'can',
  'not',
  'all',
  'some',
  'new',
]);

const ADJECTIVES = [
  'amber',
  'brisk',
  'calm',
  'deft',
  'eager',
  'fleet',
  'gentle',
  'hardy',
  'ivory',
  'jolly',
  'keen',
  'lucid',
  'mellow',
  'nimble',
  'olive',
  'plucky',
  'quiet',
  'rapid',
  'steady',
  'tidy',
  'upbeat',
  'vivid',
  'witty',
  'young',
  'zesty',
  'bold',
  'clever',
  'daring',
  'frank',
  'grand',
  'honest',
  'lively',
];
const NOUNS = [
  'otter',
  'falcon',
  'badger',
  'heron',
  'lynx',
  'marten',
  'osprey',
  'panda',
  'quail',
  'raven',
  'stoat',
  'tapir',
  'urchin',
  'vole',
  'walrus',
  'yak',
  'zebra',
  'bison',
  'crane',
  'dingo',
  'egret',
  'ferret',
  'gecko',
  'hare',
  'ibis',
  'jackal',
  'koala',
  'lemur',
  'moose',
  'newt',
  'orca',
  'puffin',
];

/** Lowercase words of a text: letters and digits, split at everything else (so "login-redirect" is two words). */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * The words two titles are compared by: every word except filler ("the",
 * "of", "fix", "add", ...), so "Launch the beta" and "Email the beta testers"
 * are different work. A title made only of filler keeps all its words.
 */
export function comparableWords(text: string): Set<string> {
  const words = wordsOf(text);
  const meaningful = words.filter((w) => !STOPWORDS.has(w));
  return new Set(meaningful.length > 0 ? meaningful : words);
}

/** Shared distinct words divided by the distinct words of the shorter text (0 when either has none). */
export function titleOverlap(a: Set<string>, b: Set<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const w of small) if (large.has(w)) shared++;
  return shared / small.size;
}

/** Words that identify a piece of work: no stopwords, nothing of two letters or fewer. */
export function significantWords(text: string): string[] {
  return wordsOf(text)
    .map((w) => w.normalize('NFKD').replace(/[^a-z0-9]/g, ''))
    .filter((w) => w.length > 2 && !STOPWORDS.has(w));
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The slug a title gives before uniqueness: first 8 significant words joined by `-`, at most 60 characters. */
export function baseSlug(title: string, id: string): string {
  let slug = '';
  for (const word of significantWords(title).slice(0, 8)) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > 60) break;
    slug = next;
  }
  if (!slug) slug = (significantWords(title)[0] ?? '').slice(0, 60) || `item-${id.slice(0, 8)}`;
  // An identifier that looks like a UUID would be read as an id.
  return UUID_SHAPE.test(slug) ? `${slug.slice(0, 55)}-item` : slug;
}

/** The nickname a title gives before uniqueness: its first two significant words, else an adjective-noun pair from the id. */
export function baseNickname(title: string, id: string): string {
  const words = significantWords(title).slice(0, 2);
  const joined = words.join('-');
  if (words.length > 0 && joined.length <= 32) return joined;
  if (words.length > 0 && words[0].length <= 32) return words[0];
  const n = parseInt(id.replace(/-/g, '').slice(0, 8), 16) || 0;
  return `${ADJECTIVES[n % ADJECTIVES.length]}-${NOUNS[Math.floor(n / ADJECTIVES.length) % NOUNS.length]}`;
}

/** `base`, or `base-2`, `base-3`, ... : the first one not in `taken`; suffixes below `from` are not tried. */
export function firstFree(base: string, taken: (candidate: string) => boolean, from = 2): string {
  if (!taken(base)) return base;
  for (let n = Math.max(2, from); ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken(candidate)) return candidate;
  }
}

/** The words of a file's name (no directories, no extension), camelCase and separators split. */
export function fileNameWords(path: string): string[] {
  const name = path.split('/').pop() ?? path;
  const stem = name.includes('.') ? name.slice(0, name.indexOf('.')) || name : name;
  return wordsOf(stem.replace(/([a-z0-9])([A-Z])/g, '$1 $2')).filter((w) => w.length > 2 && !STOPWORDS.has(w));
}
