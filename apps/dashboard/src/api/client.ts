/** A small JSON client for Baton's REST API: same origin, the browser's cookies (hosted sign-in), errors carrying the server's `detail`. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
  }
}

/** Where a signed-out person is sent, coming back to the page they were on. */
export function signInUrl(): string {
  return `/auth/login?${new URLSearchParams({ next: location.pathname }).toString()}`;
}

export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (res.status === 401) location.assign(signInUrl());
  if (!res.ok) throw new ApiError(res.status, (data as { detail?: string } | undefined)?.detail ?? `${method} ${path} answered ${res.status}`);
  return data as T;
}
