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

  /**
   * As `send`, retried the way Baton tells clients to: an answer 503 with `retryable: true` and a
   * `Retry-After` is sent again after that many seconds (at most 1 s here), up to `attempts` times in
   * all. For suites that load one instance far past its pool on purpose, where an overloaded
   * database may rightly answer "try again", and what they check is what the retried writes make.
   */
  async sendRetrying<T = any>(method: string, path: string, body?: unknown, attempts = 5): Promise<HttpResult<T>> {
    for (let attempt = 1; ; attempt++) {
      const result = await this.send<T>(method, path, body);
      const retryAfter = Number(result.headers.get('retry-after'));
      const retryable = result.status === 503 && (result.body as { retryable?: boolean } | undefined)?.retryable === true && Number.isFinite(retryAfter);
      if (!retryable || attempt >= attempts) return result;
      await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter, 1) * 1000));
    }
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
