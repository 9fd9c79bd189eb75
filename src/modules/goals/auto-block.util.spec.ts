import { dedupeAutoBlocks, mergeMinor, stripAutoBlocks } from './auto-block.util';

const block = (name: string | null, text: string) => `<!-- AUTO BLOCK${name ? `: ${name}` : ''} -->\n${text}\n<!-- END AUTO BLOCK -->`;

describe('AUTO BLOCKS', () => {
  test('stripAutoBlocks removes every block and tidies the seams', () => {
    expect(stripAutoBlocks(`Goal\n\n${block('a', 'x')}\n\n\nMore\n${block(null, 'y')}`)).toBe('Goal\n\nMore');
    expect(stripAutoBlocks('no blocks at all')).toBe('no blocks at all');
  });

  test('a start marker without an end marker is ordinary text', () => {
    const text = 'Goal\n<!-- AUTO BLOCK: open -->\nnever closed';
    expect(stripAutoBlocks(text)).toBe(text);
    expect(mergeMinor('Current', text)).toBe(text);
  });

  test('dedupeAutoBlocks keeps the first position and the last text of a repeated name', () => {
    expect(dedupeAutoBlocks(`A\n${block('s', '1')}\nB\n${block('S', '2')}`)).toBe(`A\n${block('S', '2')}\nB`);
    const unique = `A\n${block('s', '1')}\n${block('t', '2')}`;
    expect(dedupeAutoBlocks(unique)).toBe(unique);
  });

  test('mergeMinor with blocks only replaces them in place, adds new names at the end, keeps the text people wrote', () => {
    const current = `Intro\n\n${block('status', 'old')}\n\nOutro`;
    expect(mergeMinor(current, block('status', 'new'))).toBe(`Intro\n\n${block('status', 'new')}\n\nOutro`);
    expect(mergeMinor(current, block('other', 'more'))).toBe(`${current}\n\n${block('other', 'more')}`);
    expect(mergeMinor('', block(null, 'first'))).toBe(block(null, 'first'));
  });

  test('mergeMinor with text takes the content as given, folding a block appended twice', () => {
    const current = `Intro\n\n${block('status', 'old')}`;
    expect(mergeMinor(current, `${current}\n\n${block('status', 'new')}`)).toBe(`Intro\n\n${block('status', 'new')}`);
    expect(mergeMinor(current, 'Rewritten entirely')).toBe('Rewritten entirely');
  });
});
