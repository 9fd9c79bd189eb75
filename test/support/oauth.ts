import { Browser, Visit } from './browser';
import { TestDatabase } from './pg-database';
import { freePort } from './processes';
import { hostedEnv, startApp, TestApp } from './test-app';

/**
 * A hosted app on a port chosen before it starts, with APP_URL naming it exactly: the
 * authorization server's issuer and the MCP resource are absolute URLs under APP_URL, and an MCP
 * client checks that the resource it is given is the server it talks to.
 */
export async function startOAuthApp(db: TestDatabase, extra: Record<string, string> = {}): Promise<TestApp> {
  const port = await freePort();
  return startApp(hostedEnv(db.url, { APP_URL: `http://127.0.0.1:${port}`, SERVICE_PORT: String(port), ...extra }));
}

/**
 * A person's browser on Baton's own pages (consent, /activate): `Browser` (cookies by origin and
 * path, no redirect followed) holding the person's web-session cookie, with paths taken relative
 * to Baton and forms posted with Baton's Origin, as a browser posting a Baton page does.
 */
export class PageBrowser {
  readonly browser = new Browser();

  constructor(
    readonly origin: string,
    /** `name=value` of a signed-in person's web-session cookie. */
    cookie?: string,
  ) {
    if (cookie) {
      const at = cookie.indexOf('=');
      this.browser.setCookie(origin, { name: cookie.slice(0, at), value: cookie.slice(at + 1) });
    }
  }

  get(url: string): Promise<Visit> {
    return this.browser.visit(new URL(url, this.origin).toString());
  }

  postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Visit> {
    return this.browser.visit(new URL(url, this.origin).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.origin, ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** The value of a cookie the browser holds for Baton. */
  cookie(name: string): string | undefined {
    return this.browser.cookies(this.origin).get(name)?.value;
  }
}

/** The CSRF token of the (first) form on a Baton page. */
export function csrfOf(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no CSRF token on this page:\n${html.slice(0, 500)}`);
  return token;
}
