import { escapeHtml } from '../../common/http/html-page';

/** The small HTML pages a browser sees on the way through a magic link (sent with HTML_PAGE_HEADERS): no script, no external asset. */

function page(title: string, paragraphs: string[], link?: { href: string; text: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n    ');
  const action = link ? `\n    <p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : '';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="robots" content="noindex">
    <title>${escapeHtml(title)} · Baton</title>
  </head>
  <body>
    <main>
    <h1>${escapeHtml(title)}</h1>
    ${body}${action}
    </main>
  </body>
</html>
`;
}

/** After the sign-in form: the same page whether or not Baton knows the address. */
export function checkInboxPage(minutes: number): string {
  return page('Check your inbox', [
    `If the address can receive e-mail, a sign-in link is on its way. It works once, for ${minutes} minutes.`,
    'Nothing arrived? Look in your spam folder, or ask for a new link.',
  ]);
}

/** A link or a request that was refused, with the reason. */
export function refusedPage(title: string, detail: string): string {
  return page(title, [detail], { href: '/auth/login', text: 'Back to sign-in' });
}
