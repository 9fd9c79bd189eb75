import { nextPageUrl } from './codehost-paging.util';
import { rateLimitWaitMs } from './codehost-rate-limit.util';

const API = 'https://api.example.test/v3';

describe('nextPageUrl', () => {
  test('follows rel="next" among the other relations', () => {
    const link = `<${API}/repos/a/b/branches?page=1>; rel="prev", <${API}/repos/a/b/branches?page=3>; rel="next", <${API}/repos/a/b/branches?page=9>; rel="last"`;
    expect(nextPageUrl(link, API)).toBe(`${API}/repos/a/b/branches?page=3`);
  });

  test('answers nothing without a next page or a header', () => {
    expect(nextPageUrl(`<${API}/x?page=1>; rel="prev"`, API)).toBeUndefined();
    expect(nextPageUrl(null, API)).toBeUndefined();
  });

  test('does not follow a next page on another origin or outside the API path, where the token would go', () => {
    expect(nextPageUrl('<https://evil.example.test/v3/x?page=2>; rel="next"', API)).toBeUndefined();
    expect(nextPageUrl('<https://api.example.test/other?page=2>; rel="next"', API)).toBeUndefined();
  });
});

describe('rateLimitWaitMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const headers = (h: Record<string, string>) => new Headers(h);

  test('Retry-After in seconds or as a date', () => {
    expect(rateLimitWaitMs(429, headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(rateLimitWaitMs(403, headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
  });

  test('x-ratelimit-reset when nothing remains', () => {
    expect(rateLimitWaitMs(403, headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 7) }), now)).toBe(7000);
  });

  test('a 403 without rate-limit headers is a permission refusal, and other statuses are no limit', () => {
    expect(rateLimitWaitMs(403, headers({ 'x-ratelimit-remaining': '12' }), now)).toBeUndefined();
    expect(rateLimitWaitMs(500, headers({ 'retry-after': '1' }), now)).toBeUndefined();
    expect(rateLimitWaitMs(429, headers({}), now)).toBe(0);
  });
});
