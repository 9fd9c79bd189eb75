import { ORDINARY, SECRETS } from '../../test/support/secret-corpus';
import { redactSecrets, replaceSecretShapes } from './redact';

describe('redactSecrets', () => {
  describe("Baton's own API tokens", () => {
    const token = 'sk_service_3q2-Xy_9ZkPq8LmN0aBcDeFgHiJkLmNoPqRsTuVwXyZ012';

    test('an sk_service_ token anywhere in a line is replaced', () => {
      const out = redactSecrets(`token ${token} was used`);
      expect(out).toBe('token [redacted] was used');
    });

    test('a token inside JSON and next to punctuation is replaced without eating the punctuation', () => {
      expect(redactSecrets(`{"token":"${token}"}`)).toBe('{"token":"[redacted]"}');
      expect(redactSecrets(`token=${token}.`)).toBe('token=[redacted].');
    });

    test('several tokens on one line are all replaced', () => {
      const out = redactSecrets(`${token} and sk_service_other-token_42`);
      expect(out).not.toContain('sk_service_3q2');
      expect(out).not.toContain('other-token_42');
    });
  });

  describe('authorization headers', () => {
    test.each([
      ['Authorization: Bearer abc.def-123_xyz', 'Authorization: Bearer [redacted]'],
      ['authorization: bearer abc.def-123_xyz', 'authorization: bearer [redacted]'],
      ['Authorization: Basic dXNlcjpwYXNzd29yZA==', 'Authorization: Basic [redacted]'],
      ['{"authorization":"Bearer opaque~token+/="}', '{"authorization":"Bearer [redacted]"}'],
    ])('%s', (input, expected) => {
      expect(redactSecrets(input)).toBe(expected);
    });

    test('a bearer header carrying an sk_service_ token keeps neither the token nor its tail', () => {
      const out = redactSecrets('Bearer sk_service_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG');
      expect(out).toBe('Bearer [redacted]');
    });
  });

  describe('JSON web tokens', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

    test('a JWT on its own is replaced', () => {
      expect(redactSecrets(`cookie session=${jwt}; Path=/`)).toBe('cookie session=[redacted]; Path=/');
    });
  });

  describe('credentials in URLs', () => {
    test.each([
      ['postgres://baton:hunter2@db.internal:5432/baton', 'postgres://[redacted]@db.internal:5432/baton'],
      ['postgresql://baton:p%40ss@db/x', 'postgresql://[redacted]@db/x'],
      ['https://user:pw@example.com/path', 'https://[redacted]@example.com/path'],
      ['connect failed: redis://default:s3cret@cache:6379/0 (ECONNREFUSED)', 'connect failed: redis://[redacted]@cache:6379/0 (ECONNREFUSED)'],
    ])('%s', (input, expected) => {
      expect(redactSecrets(input)).toBe(expected);
    });

    // Redis URLs usually carry a password and no user name: redis://:password@host.
    test('a password with an empty user name (redis://:password@host) is removed', () => {
      const out = redactSecrets('cache at redis://:hunter2-cache@cache.internal:6379 is down');
      expect(out).not.toContain('hunter2-cache');
      expect(out).toContain('cache.internal:6379 is down');
    });

    test('the host, port and path of the URL are kept, so the line stays useful', () => {
      const out = redactSecrets('could not reach postgres://baton:hunter2@db.internal:5432/baton');
      expect(out).toContain('db.internal:5432/baton');
      expect(out).not.toContain('hunter2');
    });
  });

  describe('other providers', () => {
    test.each([
      ['an OpenAI-style project key', 'sk-proj-abcdefghijklmnopqrstuvwxyz012345'],
      ['an Anthropic-style key', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345'],
      ['a live payment key', 'sk_live_51HabcdefghijklmnopQRSTUV'],
      ['a test payment key', 'sk_test_51HabcdefghijklmnopQRSTUV'],
      ['a restricted payment key', 'rk_live_51HabcdefghijklmnopQRSTUV'],
      ['a code-host personal token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
      ['a code-host OAuth token', 'gho_abcdefghijklmnopqrstuvwxyz0123456789'],
      ['a chat bot token', 'xoxb-123456789012-1234567890123-abcdefghijkl'],
      ['a cloud access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ])('%s is replaced', (_what, key) => {
      const out = redactSecrets(`key: ${key} end`);
      expect(out).toBe('key: [redacted] end');
    });
  });

  describe('ordinary text', () => {
    test.each([
      'Created project "Alpha" (3f2b8c1e-4a5d-4e6f-9a0b-1c2d3e4f5a6b) at 2024-01-01T00:00:00.000Z',
      'see https://example.com/docs?x=1#section and http://localhost:7878/mcp',
      'risk_assessment_for_the_quarterly_plan and desk-organizer-with-many-drawers',
      'mail the report to someone@example.com',
      'sk-short and pk_1 are too short to be keys',
      'GET /projects/by-name/gamma 404 in 3 ms',
      '{"level":"warn","context":"redis","msg":"redis unavailable","error_class":"ECONNREFUSED"}',
      'sha 0123456789abcdef0123456789abcdef01234567 deployed',
      '',
    ])('%j is left alone', (text) => {
      expect(redactSecrets(text)).toBe(text);
    });

    test('is idempotent: redacting twice gives the same text', () => {
      const once = redactSecrets('Bearer sk_service_abc postgres://u:p@h/db eyJa.eyJb.c');
      expect(redactSecrets(once)).toBe(once);
    });
  });

  describe('the quick scan in front of the patterns', () => {
    const cases = [...SECRETS.map(([, value]) => value), ...ORDINARY];
    const shapes = (value: string) => [
      value,
      value.toUpperCase(),
      value.toLowerCase(),
      `{"msg":"request","path":"/x/${value}","status":200}`,
      `Authorization: Bearer ${value}`,
      `see postgres://me:${value}@db.internal/x`,
    ];
    test('never lets through a line the patterns would change, and changes nothing else', () => {
      for (const value of cases) {
        for (const text of shapes(value)) expect(redactSecrets(text)).toBe(replaceSecretShapes(text));
      }
    });
  });
});
