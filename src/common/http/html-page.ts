/** Headers of Baton's small server-rendered pages (password forms): no scripts, nothing framed, nothing cached. */
export const HTML_PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** Text made safe inside HTML, attribute values included. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface PasswordPage {
  title: string;
  heading: string;
  label: string;
  action: string;
  next: string;
  /** Why the page is shown again (a wrong password). */
  message?: string;
}

/** A page with one password field that posts to `action`, carrying `next` along. */
export function passwordPage(page: PasswordPage): string {
  const notice = page.message ? `<p class="notice" role="alert">${escapeHtml(page.message)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f6f6f4;color:#222;display:flex;min-height:100vh;margin:0;align-items:center;justify-content:center}
form{background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.12);width:min(22rem,90vw)}
h1{font-size:1.2rem;margin:0 0 1rem}label{display:block;margin-bottom:.4rem}
input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;margin-bottom:1rem}
button{padding:.5rem 1rem;font-size:1rem}.notice{color:#a40000}
</style>
</head>
<body>
<form method="post" action="${escapeHtml(page.action)}">
<h1>${escapeHtml(page.heading)}</h1>
${notice}<label for="password">${escapeHtml(page.label)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<input type="hidden" name="next" value="${escapeHtml(page.next)}">
<button type="submit">Enter</button>
</form>
</body>
</html>
`;
}
