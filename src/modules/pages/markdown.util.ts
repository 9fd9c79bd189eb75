import { escapeHtml } from '../../common/http/html-page';

/**
 * The markdown Baton's own content files use (content/): headings, paragraphs, "-" lists, fenced
 * code, `code`, **bold** and [links](https://... or /path). Everything else is shown as text:
 * the input is escaped first, so no HTML in a file reaches a page.
 */
export function renderMarkdown(source: string): string {
  const out: string[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(`<p>${inline(paragraph.join(' '))}</p>`);
    if (list.length) out.push(`<ul>${list.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`);
    paragraph = [];
    list = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('```')) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) code.push(lines[i]);
      out.push(`<pre tabindex="0"><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const item = /^[-*]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      // A page's own <h1> is its title: a file's headings start at level 2.
      const level = heading[1].length + 1;
      out.push(`<h${level}>${inline(heading[2])}</h${level}>`);
    } else if (item) {
      if (paragraph.length) flush();
      list.push(item[1]);
    } else if (!line.trim()) flush();
    else if (list.length && /^\s+/.test(line)) list[list.length - 1] += ` ${line.trim()}`;
    else {
      if (list.length) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return out.join('\n');
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(((?:https?:\/\/|\/)[^\s)]*)\)/g, '<a href="$2">$1</a>');
}

export interface FrontMatter {
  fields: Record<string, string>;
  body: string;
}

/** `---` / `key: value` lines / `---` at the top of a file, and the rest. */
export function splitFrontMatter(source: string): FrontMatter {
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(source.replace(/\r\n?/g, '\n'));
  if (!match) return { fields: {}, body: source };
  const fields: Record<string, string> = {};
  for (const line of match[1].split('\n')) {
    const field = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (field) fields[field[1]] = field[2].trim();
  }
  return { fields, body: source.slice(match[0].length) };
}
