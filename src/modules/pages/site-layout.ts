import { escapeHtml } from '../../common/http/html-page';

/**
 * Headers of Baton's public pages: images, styles and the one small script come from this origin
 * only (styles are inline in the page), nothing is framed. Pages that differ per instance or per
 * person (onboarding, setup) are not cached; the others only briefly.
 */
export function publicPageHeaders(cache: 'short' | 'none'): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Cache-Control': cache === 'short' ? 'public, max-age=300' : 'no-store',
  };
}

export interface SitePage {
  title: string;
  /** Inner HTML of <main>, already escaped where it carries text. */
  body: string;
  /** A same-origin script (path under /static/) the page needs; most need none. */
  script?: string;
}

const NAV: [string, string][] = [
  ['/', 'Baton'],
  ['/pricing', 'Pricing'],
  ['/demo', 'Demo'],
  ['/onboarding', 'Connect'],
  ['/changelog', 'Changelog'],
  ['/blog', 'Blog'],
  ['/dashboard/', 'Dashboard'],
];

/** One stylesheet for every public page: system fonts, light and dark by the reader's setting, one column that fits 375 px. */
const STYLE = `
:root{color-scheme:light dark;--bg:#fafaf8;--fg:#1d1d1b;--muted:#55554f;--card:#fff;--line:#d9d9d2;--accent:#1f5fbf;--ok:#1b7a3a;--warn:#8a5a00}
@media (prefers-color-scheme:dark){:root{--bg:#161615;--fg:#ececE6;--muted:#b4b4aa;--card:#22221f;--line:#3a3a35;--accent:#8ab4ff;--ok:#6fd08f;--warn:#f0c060}}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--accent)}a:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--card);padding:.5rem}
header{border-bottom:1px solid var(--line);background:var(--card)}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0 auto;padding:.75rem 1rem;max-width:60rem}
nav a{text-decoration:none;font-weight:500}nav a[aria-current=page]{text-decoration:underline}
main{max-width:60rem;margin:0 auto;padding:1.5rem 1rem 3rem}h1{font-size:1.8rem;line-height:1.2}h2{font-size:1.3rem;margin-top:2rem}
.lede{font-size:1.15rem;color:var(--muted)}.muted{color:var(--muted)}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:1rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem}
.card h2,.card h3{margin-top:0}
a.button{display:inline-block;background:var(--accent);color:var(--card);border-radius:6px;padding:.45rem 1rem;text-decoration:none;font-weight:600}
pre{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.75rem;overflow-x:auto;font-size:.85rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
img{max-width:100%;height:auto;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--line)}
.status{font-weight:600}.status.ok{color:var(--ok)}.status.waiting{color:var(--warn)}
.board{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem}
.board ol{list-style:none;padding:0;margin:0}.board li{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.5rem .6rem;margin-bottom:.5rem}
footer{border-top:1px solid var(--line);padding:1rem;text-align:center;font-size:.9rem}
footer a{margin:0 .5rem}
`;

/** A baton, inline: no request for it, so a page behind the site gate (/demo) needs nothing else from the instance. */
const FAVICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="2" y="7" width="12" height="2" rx="1" fill="#1f5fbf"/></svg>')}`;

/** The layout every public page shares: skip link, navigation, main, footer. */
export function renderSitePage(page: SitePage, path: string): string {
  const nav = NAV.map(([href, label]) => `<li><a href="${href}"${href === path ? ' aria-current="page"' : ''}>${label}</a></li>`).join('');
  const script = page.script ? `\n<script src="${escapeHtml(page.script)}" defer></script>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Baton</title>
<link rel="icon" href="${FAVICON}">
<style>${STYLE}</style>${script}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><nav aria-label="Site"><ul>${nav}</ul></nav></header>
<main id="main">
${page.body}
</main>
<footer><a href="/terms">Terms</a><a href="/privacy">Privacy</a><a href="/setup">Setup</a><a href="/mcp/tools-doc">MCP tools</a></footer>
</body>
</html>
`;
}
