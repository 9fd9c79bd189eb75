import { comparableWords, titleOverlap } from './sprint-text.util';
import { DUPLICATE_OVERLAP } from './sprint.constants';

export interface DuplicateCandidate {
  id: string;
  title: string;
  status: string;
  slug: string;
}

/**
 * The titles of a project's pending, todo and in-progress items, indexed by
 * word, to find a near-duplicate of a new title: shared words (filler left
 * out) over the words of the shorter title, 60 % or more.
 */
export class DuplicateIndex {
  private readonly items = new Map<string, { candidate: DuplicateCandidate; words: Set<string> }>();
  private readonly byWord = new Map<string, Set<string>>();

  constructor(candidates: DuplicateCandidate[] = []) {
    candidates.forEach((c) => this.add(c));
  }

  add(candidate: DuplicateCandidate): void {
    const words = comparableWords(candidate.title);
    this.items.set(candidate.id, { candidate, words });
    for (const w of words) {
      let ids = this.byWord.get(w);
      if (!ids) this.byWord.set(w, (ids = new Set()));
      ids.add(candidate.id);
    }
  }

  remove(id: string): void {
    const entry = this.items.get(id);
    if (!entry) return;
    for (const w of entry.words) this.byWord.get(w)?.delete(id);
    this.items.delete(id);
  }

  /** The closest near-duplicate of `title` (ignoring `exceptId`), or null. */
  find(title: string, exceptId?: string): { candidate: DuplicateCandidate; overlap: number } | null {
    const words = comparableWords(title);
    const seen = new Set<string>();
    let best: { candidate: DuplicateCandidate; overlap: number } | null = null;
    for (const w of words) {
      for (const id of this.byWord.get(w) ?? []) {
        if (seen.has(id) || id === exceptId) continue;
        seen.add(id);
        const entry = this.items.get(id)!;
        const overlap = titleOverlap(words, entry.words);
        if (overlap >= DUPLICATE_OVERLAP && (!best || overlap > best.overlap)) best = { candidate: entry.candidate, overlap };
      }
    }
    return best;
  }
}
