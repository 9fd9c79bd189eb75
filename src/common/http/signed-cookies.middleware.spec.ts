import cookieParser from 'cookie-parser';
import type { Request, Response } from 'express';
import { createHmac } from 'node:crypto';
import { signedCookieParser } from './signed-cookies.middleware';

const SECRETS = ['current-secret-0123456789', 'previous-secret-0123456789'];
const sign = (value: string, secret: string) => `s:${value}.${createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '')}`;

function run(middleware: (req: Request, res: Response, next: () => void) => void, header: string | undefined) {
  const req = { headers: header === undefined ? {} : { cookie: header } } as unknown as Request;
  middleware(req, {} as Response, () => undefined);
  return { cookies: { ...req.cookies }, signed: { ...req.signedCookies }, secret: req.secret };
}

describe('signedCookieParser', () => {
  const headers = [
    undefined,
    '',
    'plain=value',
    `baton_session=${encodeURIComponent(sign('abc', SECRETS[0]))}`,
    `baton_session=${encodeURIComponent(sign('abc', SECRETS[1]))}; theme=dark`,
    `baton_session=${encodeURIComponent(sign('abc', 'another-secret-0123456789'))}`,
    `forged=${encodeURIComponent('s:abc.not-a-signature')}; j=${encodeURIComponent('j:{"a":1}')}`,
    `signed_json=${encodeURIComponent(sign('j:{"b":2}', SECRETS[0]))}; broken=%E0%A4%A`,
  ];

  test.each(headers.map((h) => [h]))('makes of %j what cookie-parser makes of it, the first time and again', (header) => {
    const expected = run(cookieParser(SECRETS), header);
    const ours = signedCookieParser(SECRETS);
    expect(run(ours, header)).toEqual(expected);
    expect(run(ours, header)).toEqual(expected);
  });

  test('a value whose signature held is not checked again; a forged one is checked every time', () => {
    const ours = signedCookieParser(SECRETS);
    const good = `s=${encodeURIComponent(sign('abc', SECRETS[0]))}`;
    const forged = `s=${encodeURIComponent('s:abc.AAAA')}`;
    const hmac = jest.spyOn(jest.requireActual<typeof import('node:crypto')>('node:crypto'), 'createHmac');
    run(ours, good);
    run(ours, forged);
    const first = hmac.mock.calls.length;
    run(ours, good);
    expect(hmac.mock.calls.length).toBe(first);
    run(ours, forged);
    expect(hmac.mock.calls.length).toBeGreaterThan(first);
    hmac.mockRestore();
  });
});
