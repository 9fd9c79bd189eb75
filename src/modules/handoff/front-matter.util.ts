/**
 * Handoff front matter: YAML between `---` lines, every value written as
 * JSON (valid YAML flow style), so any YAML reader and Baton's own parser
 * read the same values.
 */
export function renderFrontMatter(fields: [string, unknown][]): string {
  const lines = fields.map(([key, value]) => `${/^[a-z_][a-z0-9_]*$/.test(key) ? key : JSON.stringify(key)}: ${JSON.stringify(value ?? null)}`);
  return `---\n${lines.join('\n')}\n---\n`;
}

export interface ParsedHandoff {
  fields: Record<string, unknown>;
  /** Everything after the closing `---` line, with line endings as `\n`. */
  body: string;
}

/** Reads a handoff's front matter; undefined when the text does not start with one. */
export function parseFrontMatter(content: string): ParsedHandoff | undefined {
  const text = content.replace(/\r\n/g, '\n').replace(/^\ufeff/, '');
  if (!text.startsWith('---\n')) return undefined;
  const end = text.indexOf('\n---\n', 3);
  if (end < 0) return undefined;
  const fields: Record<string, unknown> = {};
  for (const line of text.slice(4, end).split('\n')) {
    const match = /^("(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*):\s?(.*)$/.exec(line);
    if (!match) continue;
    try {
      const key = match[1].startsWith('"') ? (JSON.parse(match[1]) as string) : match[1];
      fields[key] = JSON.parse(match[2]);
    } catch {
      // a line edited by hand into something that is not JSON: ignored, like an unknown field
    }
  }
  return { fields, body: text.slice(end + 5) };
}
