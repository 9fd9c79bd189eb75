import { outlineOf } from './document-outline.util';

describe('document outline', () => {
  test('ATX and setext headings, never inside a fenced block; closing hashes dropped', () => {
    const text = ['Title', '=====', '', '## Part ##', '~~~', '# code', '~~~', 'Sub', '---', '#nospace', '####### seven'].join('\n');
    expect(outlineOf(text).headings).toEqual([
      { level: 1, text: 'Title', line: 1 },
      { level: 2, text: 'Part', line: 4 },
      { level: 2, text: 'Sub', line: 8 },
    ]);
  });

  test('a --- after a blank line is a rule, not a heading; a fence left open is reported', () => {
    const outline = outlineOf('text\n\n---\n```js\nlet a;');
    expect(outline.headings).toEqual([]);
    expect(outline).toMatchObject({ code_blocks: 1, unclosed_fence: true, lines: 5, words: 5 });
  });

  test('inline links with their lines; an empty text has no lines', () => {
    expect(outlineOf('a [x](A.md) b\n[y](https://e.org "t")').links).toEqual([
      { target: 'A.md', line: 1 },
      { target: 'https://e.org', line: 2 },
    ]);
    expect(outlineOf('')).toMatchObject({ lines: 0, words: 0, headings: [] });
  });
});
