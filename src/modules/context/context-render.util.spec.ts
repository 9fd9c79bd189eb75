import { cleanLine, renderBlocks } from './context-render.util';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('renderBlocks', () => {
  const header = ['# Title'];

  test('renders every block in full when it fits, with no "more" line', () => {
    const out = renderBlocks(
      [
        { key: 'a', title: 'A', lines: ['one', 'two'] },
        { key: 'b', title: 'B', lines: ['three'] },
      ],
      { capBytes: 1000, maxLineChars: 100, header },
    );
    expect(out.text).toBe('# Title\n\n## A\n- one\n- two\n\n## B\n- three\n');
    expect(out.truncated).toBe(false);
    expect(out.blocks.map((b) => b.omitted)).toEqual([0, 0]);
  });

  test('under a tight cap every block keeps its first lines, taken round-robin, and says how many were left out', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `task ${10_000 - i} ${'x'.repeat(60)}`);
    const out = renderBlocks(
      [
        { key: 'head', title: 'Head', lines: ['h1', 'h2', 'h3'] },
        { key: 'tasks', title: 'Tasks', lines: many },
        { key: 'tail', title: 'Tail', lines: ['t1', 't2'] },
      ],
      { capBytes: 2048, maxLineChars: 300, header },
    );
    expect(out.bytes).toBeLessThanOrEqual(2048);
    expect(out.bytes).toBe(bytes(out.text));
    expect(out.truncated).toBe(true);
    expect(out.text).toContain('- h3\n');
    expect(out.text).toContain('- t2\n');
    expect(out.text).toContain(`- task 10000 `);
    expect(out.text).not.toContain('- task 1 ');
    const tasks = out.blocks.find((b) => b.key === 'tasks');
    expect(tasks?.omitted).toBe(10_000 - (tasks?.lines.length ?? 0));
    expect(out.text).toContain(`- … ${tasks?.omitted} more not shown\n`);
  });

  test('the same blocks always give the same bytes', () => {
    const blocks = [{ key: 'a', title: 'A', lines: Array.from({ length: 500 }, (_, i) => `line ${i} ü😀`) }];
    const first = renderBlocks(blocks, { capBytes: 3000, maxLineChars: 50, header });
    const second = renderBlocks(blocks, { capBytes: 3000, maxLineChars: 50, header });
    expect(second.text).toBe(first.text);
  });

  test('maxLinesPerBlock keeps the first lines of each block', () => {
    const out = renderBlocks([{ key: 'a', title: 'A', lines: ['1', '2', '3', '4', '5'] }], { capBytes: 5000, maxLineChars: 50, maxLinesPerBlock: 3, header });
    expect(out.text).toBe('# Title\n\n## A\n- 1\n- 2\n- 3\n- … 2 more not shown\n');
  });

  test('blocks that cannot fit even their title are dropped from the end', () => {
    const out = renderBlocks(
      [
        { key: 'a', title: 'A', lines: ['x'] },
        { key: 'b', title: 'B'.repeat(100), lines: ['y'] },
      ],
      { capBytes: 60, maxLineChars: 50, header },
    );
    expect(out.bytes).toBeLessThanOrEqual(60);
    expect(out.text).toContain('## A');
    expect(out.text).not.toContain('## BBB');
    expect(out.blocks[1]).toMatchObject({ key: 'b', lines: [], omitted: 1 });
  });

  test('no block at all: the header and the empty text', () => {
    expect(renderBlocks([], { capBytes: 100, maxLineChars: 50, header, emptyText: 'Nothing yet.' }).text).toBe('# Title\n\nNothing yet.\n');
  });

  test('text blocks keep their lines as written; list lines are flattened', () => {
    const out = renderBlocks(
      [
        { key: 's', title: 'Summary', lines: ['first line', '', '  indented'], style: 'text' },
        { key: 'l', title: 'List', lines: ['multi\nline\r\nitem', '- already a bullet'] },
      ],
      { capBytes: 1000, maxLineChars: 100, header },
    );
    expect(out.text).toBe('# Title\n\n## Summary\nfirst line\n\n  indented\n\n## List\n- multi line item\n- already a bullet\n');
  });
});

describe('cleanLine', () => {
  test('removes control characters and cuts long lines with an ellipsis without splitting a character', () => {
    expect(cleanLine('a\u0000b\u0007c\u001b[31m', 'list', 50)).toBe('abc[31m');
    expect(cleanLine('😀'.repeat(10), 'list', 5)).toBe('😀😀😀😀…');
    expect(cleanLine('\ttabbed', 'list', 50)).toBe('tabbed');
  });
});
