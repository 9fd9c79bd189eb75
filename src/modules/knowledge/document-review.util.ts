import { DocumentOutline } from './document-outline.util';

export const REVIEW_CODES = ['empty', 'no_heading', 'skipped_heading_level', 'duplicate_heading', 'todo_marker', 'unclosed_code_fence', 'broken_link', 'stale'] as const;
export type ReviewCode = (typeof REVIEW_CODES)[number];

export interface ReviewIssue {
  code: ReviewCode;
  /** 1-based line the issue is on, when it is on one. */
  line: number | null;
  detail: string;
}

/** A document untouched for this many days is flagged `stale`. */
export const STALE_DAYS = 90;
const TODO = /\b(TODO|FIXME|TBD|XXX)\b/;

/**
 * What a reader of a project's documents should look at: empty files, files
 * without a heading, heading levels that skip (# then ###), the same heading
 * twice, TODO/FIXME/TBD/XXX markers, an unclosed code fence, relative links to
 * a .md file the project does not have, and files untouched for STALE_DAYS.
 */
export function reviewDocument(input: { content: string; outline: DocumentOutline; updatedAt: Date; now: Date; filenames: ReadonlySet<string> }): ReviewIssue[] {
  const { content, outline } = input;
  if (content.trim() === '') return [{ code: 'empty', line: null, detail: 'the document has no text' }];
  const issues: ReviewIssue[] = [];
  if (outline.headings.length === 0) issues.push({ code: 'no_heading', line: null, detail: 'the document has no heading' });
  const seen = new Map<string, number>();
  outline.headings.forEach((h, i) => {
    const previous = outline.headings[i - 1];
    if (previous && h.level > previous.level + 1) issues.push({ code: 'skipped_heading_level', line: h.line, detail: `heading level ${h.level} follows level ${previous.level}` });
    const key = `${h.level}:${h.text.toLowerCase()}`;
    const first = seen.get(key);
    if (first !== undefined) issues.push({ code: 'duplicate_heading', line: h.line, detail: `"${h.text}" is also the heading on line ${first}` });
    else seen.set(key, h.line);
  });
  content.split(/\r\n|\r|\n/).forEach((text, i) => {
    const marker = TODO.exec(text);
    if (marker) issues.push({ code: 'todo_marker', line: i + 1, detail: `${marker[1]} marker` });
  });
  if (outline.unclosed_fence) issues.push({ code: 'unclosed_code_fence', line: null, detail: 'a code fence is opened and never closed' });
  for (const link of outline.links) {
    const target = link.target.split('#')[0];
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(target) || !/\.md$/i.test(target)) continue;
    const name = target.replace(/^\.\//, '');
    if (!input.filenames.has(name.toLowerCase())) issues.push({ code: 'broken_link', line: link.line, detail: `link to ${target}, which the project has no file of` });
  }
  const days = Math.floor((input.now.getTime() - input.updatedAt.getTime()) / 86_400_000);
  if (days >= STALE_DAYS) issues.push({ code: 'stale', line: null, detail: `not updated for ${days} days` });
  return issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
