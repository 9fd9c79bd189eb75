import type { Request, Response } from 'express';
import { SecretBox } from '../../../libs/tenancy';
import { OAUTH_STATE_TTL_MS } from './auth-providers.constants';
import { FlowState, SealedStateStore, STATE_REFUSED } from './oauth-state.store';

/** What the store sets on a response, and a request that carries it back. */
function browser() {
  const cookies = new Map<string, { value: string; options: Record<string, unknown> }>();
  const res = { cookie: (name: string, value: string, options: Record<string, unknown>) => cookies.set(name, { value, options }) } as unknown as Response;
  const request = (cookie?: string) => ({ res, headers: cookie ? { cookie } : {} }) as unknown as Request;
  return { cookies, request };
}

function started(store: SealedStateStore, carried: FlowState = { next: '/projects' }) {
  const b = browser();
  let state = '';
  store.store(b.request(), 'the-verifier', carried, {}, (_err, s) => (state = s!));
  const cookie = `${store.cookieName}=${b.cookies.get(store.cookieName)!.value}`;
  return { state, cookie, options: b.cookies.get(store.cookieName)!.options, request: b.request };
}

function verify(store: SealedStateStore, req: Request, state: unknown): { ok: string | false; carried: unknown } {
  let answer!: { ok: string | false; carried: unknown };
  store.verify(req, state, {}, (_err, ok, carried) => (answer = { ok, carried }));
  return answer;
}

describe('SealedStateStore', () => {
  const box = new SecretBox('a-session-secret-of-some-length', 'oauth-state');
  const store = new SealedStateStore('idpa', box, true);

  test('keeps the state, verifier and next in an HttpOnly, SameSite=Lax, Secure cookie scoped to /auth, for ten minutes', () => {
    const { state, cookie, options } = started(store);
    expect(state).toMatch(/^[\w-]{43}$/);
    expect(options).toMatchObject({ httpOnly: true, sameSite: 'lax', secure: true, path: '/auth', maxAge: OAUTH_STATE_TTL_MS });
    expect(cookie).not.toContain(state);
    expect(cookie).not.toContain('the-verifier');
  });

  test('gives back the verifier and what was carried for the state it issued', () => {
    const { state, cookie, request } = started(store, { next: '/projects', accountId: 'acc-1' });
    expect(verify(store, request(cookie), state)).toEqual({ ok: 'the-verifier', carried: { next: '/projects', accountId: 'acc-1' } });
  });

  test('refuses another state, no cookie, an altered cookie, another flow’s cookie, or one past its time', () => {
    const { state, cookie, request } = started(store);
    // Another state: its first character differs (always: a fixed replacement would equal a state that has it).
    const another = state.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    expect(verify(store, request(cookie), another)).toEqual({ ok: false, carried: STATE_REFUSED });
    expect(verify(store, request(cookie), undefined).ok).toBe(false);
    expect(verify(store, request(), state).ok).toBe(false);
    expect(verify(store, request(cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))), state).ok).toBe(false);

    const other = new SealedStateStore('idpc', box, true);
    const theirs = started(other);
    expect(verify(store, request(`${store.cookieName}=${theirs.cookie.split('=')[1]}`), theirs.state).ok).toBe(false);

    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + OAUTH_STATE_TTL_MS + 1);
    try {
      expect(verify(store, request(cookie), state).ok).toBe(false);
    } finally {
      clock.mockRestore();
    }
  });
});
