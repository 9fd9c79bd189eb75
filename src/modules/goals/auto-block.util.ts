/**
 * AUTO BLOCKS: parts of a goal written by machines (summaries, status
 * roll-ups), kept apart from the text people write:
 *
 *   <!-- AUTO BLOCK: status -->
 *   ...generated text...
 *   <!-- END AUTO BLOCK -->
 *
 * The name (letters, digits, `_ . -`, compared without regard to case) is
 * optional; an unnamed block is named `auto`. A start marker without its end
 * marker is ordinary text.
 */
const BLOCK = /<!--\s*AUTO BLOCK(?:\s*:\s*([A-Za-z0-9_.-]{1,64}))?\s*-->[\s\S]*?<!--\s*END AUTO BLOCK\s*-->/gi;

interface Block {
  name: string;
  text: string;
  start: number;
  end: number;
}

function blocksOf(content: string): Block[] {
  return [...content.matchAll(BLOCK)].map((m) => ({
    name: (m[1] ?? 'auto').toLowerCase(),
    text: m[0],
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
}

/** Tidies the seams left where blocks were cut out: no runs of blank lines, no trailing whitespace. */
function tidy(text: string): string {
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The goal as people wrote it: every AUTO BLOCK removed (what goal history shows). */
export function stripAutoBlocks(content: string): string {
  return tidy(content.replace(BLOCK, ''));
}

/**
 * One block per name: a name that appears twice keeps the position of its
 * first block and the text of its last (so "old goal + new block" never
 * duplicates a block).
 */
export function dedupeAutoBlocks(content: string): string {
  const blocks = blocksOf(content);
  const last = new Map<string, string>();
  for (const b of blocks) last.set(b.name, b.text);
  if (last.size === blocks.length) return content;
  const placed = new Set<string>();
  let out = '';
  let at = 0;
  for (const b of blocks) {
    out += content.slice(at, b.start);
    if (!placed.has(b.name)) {
      out += last.get(b.name);
      placed.add(b.name);
    }
    at = b.end;
  }
  return tidy(out + content.slice(at));
}

/**
 * A minor write. When `incoming` is nothing but AUTO BLOCKS, each replaces the
 * stored block of the same name where it stands (a new name is added at the
 * end) and the text people wrote is kept. Otherwise `incoming` is the new
 * content, with repeated blocks folded into one.
 */
export function mergeMinor(current: string, incoming: string): string {
  const blocks = blocksOf(incoming);
  if (blocks.length === 0 || stripAutoBlocks(incoming) !== '') return dedupeAutoBlocks(incoming);
  let result = dedupeAutoBlocks(current);
  const latest = new Map<string, string>();
  for (const b of blocks) latest.set(b.name, b.text);
  for (const [name, text] of latest) {
    const existing = blocksOf(result).find((b) => b.name === name);
    result = existing ? result.slice(0, existing.start) + text + result.slice(existing.end) : tidy(`${result}\n\n${text}`);
  }
  return result;
}
