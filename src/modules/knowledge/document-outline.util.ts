export interface Heading {
  level: number;
  text: string;
  /** 1-based line of the heading. */
  line: number;
}

export interface DocumentOutline {
  headings: Heading[];
  lines: number;
  words: number;
  code_blocks: number;
  /** Targets of inline links `[text](target)`, in order, with their line. */
  links: { target: string; line: number }[];
  /** Whether a ``` or ~~~ fence is left open at the end. */
  unclosed_fence: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const LINK = /\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

/**
 * The outline of a markdown text: ATX (`## Title`) and setext (underlined)
 * headings outside fenced code, inline links, word and code-block counts. Plain
 * text is markdown without headings.
 */
export function outlineOf(content: string): DocumentOutline {
  const lines = content.split(/\r\n|\r|\n/);
  const outline: DocumentOutline = { headings: [], lines: content === '' ? 0 : lines.length, words: 0, code_blocks: 0, links: [], unclosed_fence: false };
  let fence: string | null = null;
  lines.forEach((text, i) => {
    const line = i + 1;
    outline.words += (text.match(/\S+/g) ?? []).length;
    const f = FENCE.exec(text);
    if (fence !== null) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && text.trim() === f[1]) fence = null;
      return;
    }
    if (f) {
      fence = f[1];
      outline.code_blocks += 1;
      return;
    }
    const atx = ATX.exec(text);
    if (atx) {
      outline.headings.push({ level: atx[1].length, text: (atx[2] ?? '').trim(), line });
      return;
    }
    const previous = lines[i - 1];
    if (SETEXT.exec(text) && previous !== undefined && previous.trim() !== '' && !ATX.test(previous) && !FENCE.test(previous) && !outline.headings.some((h) => h.line === i)) {
      outline.headings.push({ level: text.trim()[0] === '=' ? 1 : 2, text: previous.trim(), line: i });
    }
    for (const match of text.matchAll(LINK)) outline.links.push({ target: match[1], line });
  });
  outline.headings.sort((a, b) => a.line - b.line);
  outline.unclosed_fence = fence !== null;
  return outline;
}
