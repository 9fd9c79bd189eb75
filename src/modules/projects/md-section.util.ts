import { ProjectExtrasError } from './project-extras.errors';

/**
 * Named sections of a markdown file, between anchor comments on lines of their own:
 *
 *   <!-- baton:begin build -->
 *   ...section text...
 *   <!-- baton:end build -->
 *
 * Names are matched without regard to case. Text outside the anchors is never touched.
 */
function markers(name: string) {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    begin: new RegExp(`<!--\\s*baton:begin\\s+${n}\\s*-->`, 'gi'),
    end: new RegExp(`<!--\\s*baton:end\\s+${n}\\s*-->`, 'gi'),
  };
}

export function sectionBlock(name: string, text: string): string {
  return `<!-- baton:begin ${name} -->\n${text.replace(/\n+$/, '')}\n<!-- baton:end ${name} -->`;
}

/**
 * Replaces the text of section `name` in `content`. Answers the new content and
 * whether the section had to be added (only with `create`: appended at the end).
 */
export function replaceSection(filename: string, content: string, name: string, text: string, create: boolean): { content: string; created: boolean } {
  const { begin, end } = markers(name);
  const begins = [...content.matchAll(begin)];
  if (begins.length > 1) throw ProjectExtrasError.sectionAmbiguous(filename, name);
  if (begins.length === 0) {
    if ([...content.matchAll(end)].length > 0) throw ProjectExtrasError.sectionMalformed(filename, name);
    if (!create) throw ProjectExtrasError.sectionNotFound(filename, name);
    const head = content.replace(/\s+$/, '');
    return { content: `${head}${head ? '\n\n' : ''}${sectionBlock(name, text)}\n`, created: true };
  }
  const start = (begins[0].index ?? 0) + begins[0][0].length;
  end.lastIndex = start;
  const close = end.exec(content);
  if (!close) throw ProjectExtrasError.sectionMalformed(filename, name);
  const body = `\n${text.replace(/\n+$/, '')}\n`;
  return { content: content.slice(0, start) + body + content.slice(close.index), created: false };
}
