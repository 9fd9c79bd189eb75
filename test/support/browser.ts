/** A cookie as a server set it, with the attributes a test checks. */
export interface JarCookie {
  name: string;
  value: string;
  path: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite: string | undefined;
  /** Epoch milliseconds; undefined for a session cookie. */
  expires: number | undefined;
}

/** One answer a browser got: a page or a redirect. */
export interface Visit {
  url: string;
  status: number;
  /** The absolute target of a redirect, or undefined. */
  location: string | undefined;
  headers: Headers;
  text: string;
  /** The cookies this answer set (deletions included, with an expiry in the past). */
  setCookies: JarCookie[];
}

/**
 * What a browser does on sign-in pages, over fetch: keeps cookies per origin (stricter than a
 * browser, which ignores the port, so a provider and Baton on two loopback ports never see each
 * other's cookies), sends those whose path matches, and follows redirects one at a time so a test
 * can stop at, inspect or tamper with any of them.
 */
export class Browser {
  private readonly jar = new Map<string, Map<string, JarCookie>>();

  /** One request, no redirect followed. */
  async visit(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Visit> {
    const target = new URL(url);
    const cookie = this.cookieHeader(target);
    const response = await fetch(target, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...init.headers },
      body: init.body,
    });
    const setCookies = response.headers.getSetCookie().map(parseSetCookie);
    for (const c of setCookies) this.store(target.origin, c);
    const raw = response.headers.get('location');
    return {
      url,
      status: response.status,
      location: raw ? new URL(raw, target).toString() : undefined,
      headers: response.headers,
      text: await response.text(),
      setCookies,
    };
  }

  /**
   * Visits `url` and follows redirects until an answer that is not a redirect, or until the next
   * target satisfies `stopBefore` (that target is not visited). Returns every visit made.
   */
  async follow(url: string, stopBefore: (next: URL) => boolean = () => false, maxHops = 15): Promise<Visit[]> {
    const visits: Visit[] = [];
    let next: string | undefined = url;
    while (next && visits.length < maxHops) {
      const visit = await this.visit(next);
      visits.push(visit);
      next = visit.location;
      if (next && stopBefore(new URL(next))) break;
    }
    return visits;
  }

  /** The cookies the browser holds for an origin, by name. */
  cookies(origin: string): Map<string, JarCookie> {
    const now = Date.now();
    const held = new Map<string, JarCookie>();
    for (const c of this.jar.get(new URL(origin).origin)?.values() ?? []) if (c.expires === undefined || c.expires > now) held.set(c.name, c);
    return held;
  }

  /** Sets or replaces a cookie by hand (a tampered value, say). */
  setCookie(origin: string, cookie: Pick<JarCookie, 'name' | 'value'> & Partial<JarCookie>): void {
    this.store(new URL(origin).origin, { path: '/', httpOnly: false, secure: false, sameSite: undefined, expires: undefined, ...cookie });
  }

  private store(origin: string, cookie: JarCookie): void {
    const cookies = this.jar.get(origin) ?? new Map<string, JarCookie>();
    this.jar.set(origin, cookies);
    const key = `${cookie.name};${cookie.path}`;
    if (cookie.expires !== undefined && cookie.expires <= Date.now()) cookies.delete(key);
    else cookies.set(key, cookie);
  }

  private cookieHeader(target: URL): string {
    const now = Date.now();
    return [...(this.jar.get(target.origin)?.values() ?? [])]
      .filter((c) => (c.expires === undefined || c.expires > now) && pathMatches(target.pathname, c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  return requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/');
}

/** Parses one Set-Cookie header value. */
export function parseSetCookie(header: string): JarCookie {
  const [pair, ...attributes] = header.split(';').map((part) => part.trim());
  const eq = pair.indexOf('=');
  const cookie: JarCookie = { name: pair.slice(0, eq), value: pair.slice(eq + 1), path: '/', httpOnly: false, secure: false, sameSite: undefined, expires: undefined };
  for (const attribute of attributes) {
    const [key, ...rest] = attribute.split('=');
    const value = rest.join('=');
    switch (key.toLowerCase()) {
      case 'path':
        cookie.path = value || '/';
        break;
      case 'httponly':
        cookie.httpOnly = true;
        break;
      case 'secure':
        cookie.secure = true;
        break;
      case 'samesite':
        cookie.sameSite = value;
        break;
      case 'max-age':
        cookie.expires = Date.now() + Number(value) * 1000;
        break;
      case 'expires':
        cookie.expires ??= Date.parse(value);
        break;
    }
  }
  return cookie;
}
