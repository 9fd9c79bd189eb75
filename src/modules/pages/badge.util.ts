import { escapeHtml } from '../../common/http/html-page';

export type BadgeColour = 'green' | 'blue' | 'grey' | 'red';

const FILL: Record<BadgeColour, string> = { green: '#2e7d32', blue: '#1f5fbf', grey: '#555', red: '#b3261e' };

/** Width of `text` in 11px Verdana, close enough for a badge: shields.io measures, we estimate. */
function textWidth(text: string): number {
  return Math.round([...text].reduce((w, c) => w + (/[mwMW@]/.test(c) ? 10 : /[il.:1 ]/.test(c) ? 4 : 7), 0));
}

/** A shields-style badge: grey label on the left, coloured value on the right, readable by screen readers. */
export function renderBadge(label: string, value: string, colour: BadgeColour): string {
  const left = textWidth(label) + 12;
  const right = textWidth(value) + 12;
  const width = left + right;
  const l = escapeHtml(label);
  const v = escapeHtml(value);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${l}: ${v}"><title>${l}: ${v}</title><linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${FILL[colour]}"/><rect width="${width}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"><text x="${left / 2}" y="14">${l}</text><text x="${left + right / 2}" y="14">${v}</text></g></svg>`;
}
