import { SprintItem } from './sprint-item.entity';
import { fileNameWords, significantWords } from './sprint-text.util';

/** The most files an item's touches_files holds: past it, later matches are dropped. */
const TOUCHED_FILES_MAX = 100;

/** A changed file and the words of its name. */
export interface NamedFile {
  path: string;
  words: string[];
}

/** The changed files with the words of their names; a file whose name has no word can match no title and is left out. */
export function namedFiles(changedFiles: readonly string[]): NamedFile[] {
  return changedFiles.map((f) => ({ path: f, words: fileNameWords(f) })).filter((f) => f.words.length > 0);
}

/**
 * The item's touches_files with the changed files whose name shares a word
 * with its title added ("login.controller.ts" and "Fix login redirect"),
 * first seen first, at most TOUCHED_FILES_MAX; null when nothing is added.
 */
export function touchedFilesWith(item: Pick<SprintItem, 'title' | 'touches_files'>, files: readonly NamedFile[]): string[] | null {
  const titleWords = new Set(significantWords(item.title));
  const matched = files.filter((f) => f.words.some((w) => titleWords.has(w))).map((f) => f.path);
  if (matched.length === 0) return null;
  const current: string[] = JSON.parse(item.touches_files);
  const merged = [...new Set([...current, ...matched])].slice(0, TOUCHED_FILES_MAX);
  return merged.length === current.length ? null : merged;
}
