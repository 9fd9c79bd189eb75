import { outlineOf } from './document-outline.util';
import { reviewDocument, STALE_DAYS } from './document-review.util';

const now = new Date('2026-06-01T00:00:00Z');
const review = (content: string, options: { daysOld?: number; files?: string[] } = {}) =>
  reviewDocument({
    content,
    outline: outlineOf(content),
    updatedAt: new Date(now.getTime() - (options.daysOld ?? 0) * 86_400_000),
    now,
    filenames: new Set(options.files ?? []),
  }).map((i) => [i.code, i.line]);

describe('document review', () => {
  test('a clean document has no issues', () => {
    expect(review('# A\n\n## B\n\nSee [c](./c.md) and [site](https://x.org/y.md).', { files: ['c.md'] })).toEqual([]);
  });

  test('an empty document is only empty', () => {
    expect(review(' \n\t', { daysOld: 400 })).toEqual([['empty', null]]);
  });

  test('skipped levels, duplicates at the same level, markers, broken links, staleness', () => {
    const text = '# A\n### B\n## C\n## C\n### C\nFIXME later; todo is fine\n[x](Gone.md#part)';
    expect(review(text, { daysOld: STALE_DAYS })).toEqual([
      ['stale', null],
      ['skipped_heading_level', 2],
      ['duplicate_heading', 4],
      ['todo_marker', 6],
      ['broken_link', 7],
    ]);
    expect(review('words only', { daysOld: STALE_DAYS - 1 })).toEqual([['no_heading', null]]);
  });
});
