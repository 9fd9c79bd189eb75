export interface HttpResult<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** A small JSON client over fetch: what a dashboard or an integration would send. */
export class Http {
  constructor(
    readonly base: string,
    private readonly token?: string,
    /** Headers sent with every request (a browser's cookie and Origin), under the call's own. */
    private readonly defaults: Record<string, string> = {},
  ) {}

  withToken(token: string | undefined): Http {
    return new Http(this.base, token, this.defaults);
  }

  withHeaders(headers: Record<string, string>): Http {
    return new Http(this.base, this.token, { ...this.defaults, ...headers });
  }

  get<T = any>(path: string, headers: Record<string, string> = {}) {
    return this.send<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.send<T>('POST', path, body, headers);
  }
  patch<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.send<T>('PATCH', path, body, headers);
  }
  delete<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.send<T>('DELETE', path, body, headers);
  }

  /** Sends `body` as JSON, or as-is when it is already a string (for malformed payloads). */
  async send<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    const init: RequestInit = { method, headers: { ...this.defaults, ...headers }, redirect: 'manual' };
    const h = init.headers as Record<string, string>;
    if (this.token) h.authorization = `Bearer ${this.token}`;
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await fetch(this.base + path, init);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  }
}
