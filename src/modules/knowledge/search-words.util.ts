/** Words of a search: letters and digits; everything else (quotes, operators, punctuation) separates them. */
export function searchWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 32);
}

/**
 * A short piece of `text` around the first word of the search it contains
 * (compared without case, and by its first five letters so that a stemmed
 * match such as "deploying" for "deploy" is shown too); the start when none.
 */
export function snippetOf(text: string, words: string[], size: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const hits = words.map((w) => lower.indexOf(w.toLowerCase().slice(0, 5))).filter((i) => i >= 0);
  const at = hits.length ? Math.min(...hits) : 0;
  const start = Math.max(0, at - Math.floor(size / 4));
  const piece = flat.slice(start, start + size);
  return `${start > 0 ? '…' : ''}${piece}${start + size < flat.length ? '…' : ''}`;
}
