/** Text a person or a provider chose, made safe inside HTML (element content and quoted attributes). */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A paragraph of the HTML part: plain text (escaped), or a link whose address and label are escaped. */
export type HtmlBlock = string | { link: string; label: string };

/** The HTML part of an e-mail: the same words as its text part, every interpolated value escaped. */
export function htmlLetter(title: string, blocks: HtmlBlock[]): string {
  const body = blocks
    .map((block) =>
      typeof block === 'string'
        ? `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`
        : `<p><a href="${escapeHtml(block.link)}" style="color:#1f4fd1">${escapeHtml(block.label)}</a></p>`,
    )
    .join('\n');
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:560px">\n${body}\n</body></html>`
  );
}

/** Names people chose go into a subject line: no line breaks or other control characters. */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}
