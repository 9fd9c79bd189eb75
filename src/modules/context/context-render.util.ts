/**
 * Renders titled blocks of lines into one bounded text: the context block and
 * the body of a handoff. Pure and deterministic: the same blocks and options
 * always give the same bytes.
 *
 * When everything does not fit, every block first keeps its title, then lines
 * are taken round-robin — the first line of each block, then the second of
 * each, and so on — so each block keeps its most important lines (providers
 * put the newest and most important first) and no one long block crowds the
 * others out. A truncated block ends with a line saying how many were left out.
 */

export interface RenderBlock {
  key: string;
  title: string;
  /** Most important first. */
  lines: string[];
  /** list: each line a bullet on one line; text: lines of a paragraph kept as written. */
  style?: 'list' | 'text';
  /** Not cut to `maxLinesPerBlock` (the goal in a brief block): only the byte cap can shorten it. */
  whole?: boolean;
}

export interface RenderOptions {
  /** Largest result, in bytes of UTF-8. */
  capBytes: number;
  /** Longer lines are cut (with an ellipsis) to this many characters. */
  maxLineChars: number;
  /** At most this many lines of any one block are considered. */
  maxLinesPerBlock?: number;
  /** Lines before the first block, always kept. */
  header: string[];
  /** Said when there is no block at all. */
  emptyText?: string;
}

export interface RenderedBlock {
  key: string;
  title: string;
  /** The lines shown, as shown. */
  lines: string[];
  /** Lines the block had. */
  total: number;
  /** Lines left out to stay under the cap. */
  omitted: number;
}

export interface RenderResult {
  text: string;
  bytes: number;
  truncated: boolean;
  blocks: RenderedBlock[];
}

const bytesOf = (s: string) => Buffer.byteLength(s, 'utf8');
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

export function renderBlocks(input: RenderBlock[], options: RenderOptions): RenderResult {
  const header = `${options.header.map((l) => cleanLine(l, 'list', options.maxLineChars * 2)).join('\n')}\n`;
  const blocks = input.map((b) => {
    const style = b.style ?? 'list';
    const cleaned = b.lines.map((l) => cleanLine(l, style, options.maxLineChars)).filter((l) => style === 'text' || l !== '');
    const considered = options.maxLinesPerBlock === undefined || b.whole ? cleaned : cleaned.slice(0, options.maxLinesPerBlock);
    return { key: b.key, title: cleanLine(b.title, 'list', 200), style, lines: considered, total: cleaned.length };
  });
  if (blocks.length === 0) {
    const text = options.emptyText ? `${header}\n${options.emptyText}\n` : header;
    return { text, bytes: bytesOf(text), truncated: false, blocks: [] };
  }

  const titleOf = (b: { title: string }) => `\n## ${b.title}\n`;
  const lineOf = (style: string, line: string) => (style === 'text' ? `${line}\n` : `- ${line}\n`);
  const markerOf = (style: string, n: number) => lineOf(style, `… ${n} more not shown`);

  // Everything fits (the usual case): no reservation, nothing left out.
  const whole = blocks.map((b) => ({ ...b, shown: b.lines.length }));
  const wholeText = compose(header, whole);
  if (bytesOf(wholeText) <= options.capBytes && whole.every((b) => b.shown === b.total)) {
    return result(wholeText, whole, false);
  }

  // Titles and a worst-case "N more" line for each block are reserved first.
  let kept = blocks.slice();
  const fixedOf = (list: typeof blocks) => list.reduce((sum, b) => sum + bytesOf(titleOf(b)) + bytesOf(markerOf(b.style, b.total)), bytesOf(header));
  while (kept.length > 0 && fixedOf(kept) > options.capBytes) kept = kept.slice(0, -1);
  let remaining = options.capBytes - fixedOf(kept);
  const shown = kept.map(() => 0);
  const open = kept.map((b) => b.lines.length > 0);
  for (let progress = true; progress;) {
    progress = false;
    kept.forEach((b, i) => {
      if (!open[i]) return;
      const cost = bytesOf(lineOf(b.style, b.lines[shown[i]]));
      if (cost > remaining) {
        open[i] = false;
        return;
      }
      remaining -= cost;
      shown[i] += 1;
      progress = true;
      if (shown[i] === b.lines.length) open[i] = false;
    });
  }
  const rendered = blocks.map((b, i) => ({ ...b, shown: i < kept.length ? shown[i] : 0, dropped: i >= kept.length }));
  return result(
    compose(
      header,
      rendered.filter((b) => !b.dropped),
    ),
    rendered,
    true,
  );

  function compose(head: string, list: { title: string; style: string; lines: string[]; total: number; shown: number }[]): string {
    let text = head;
    for (const b of list) {
      text += titleOf(b);
      for (const line of b.lines.slice(0, b.shown)) text += lineOf(b.style, line);
      if (b.shown < b.total) text += markerOf(b.style, b.total - b.shown);
    }
    return text;
  }

  function result(text: string, list: { key: string; title: string; lines: string[]; total: number; shown: number }[], truncated: boolean): RenderResult {
    const out = list.map((b) => ({ key: b.key, title: b.title, lines: b.lines.slice(0, b.shown), total: b.total, omitted: b.total - b.shown }));
    return { text, bytes: bytesOf(text), truncated: truncated && out.some((b) => b.omitted > 0), blocks: out };
  }
}

/** One line as shown: no control characters, a list item on one line, at most `max` characters. */
export function cleanLine(raw: string, style: 'list' | 'text', max: number): string {
  const flat = style === 'list' ? raw.replace(/\s*[\r\n]+\s*/g, ' ').replace(/\t/g, ' ') : raw.replace(/\r/g, '').replace(/\t/g, '  ');
  const text = flat.replace(CONTROL, '').trimEnd();
  // A provider may write its own bullet ("- x"): the list adds one, so it is dropped rather than doubled.
  const chars = Array.from(style === 'list' ? text.trimStart().replace(/^[-*•]\s+/, '') : text);
  return chars.length <= max ? chars.join('') : `${chars.slice(0, Math.max(1, max - 1)).join('')}…`;
}
