import { presentedProjectToken, triesProjectToken } from './project-token.decorator';

const WEBHOOK = 'bwh_0123456789abcdef0123456789abcdef_secret';
const REWIND = 'brw_0123456789abcdef0123456789abcdef_secret';

const request = (headers: Record<string, string> = {}, query: Record<string, string> = {}) => ({ headers, query });

describe('presentedProjectToken', () => {
  test('a webhook token is read from Authorization: Bearer or X-Webhook-Token, never from the query string', () => {
    expect(presentedProjectToken(request({ authorization: `Bearer ${WEBHOOK}` }), 'webhook')).toBe(WEBHOOK);
    expect(presentedProjectToken(request({ 'x-webhook-token': ` ${WEBHOOK} ` }), 'webhook')).toBe(WEBHOOK);
    expect(presentedProjectToken(request({}, { token: WEBHOOK }), 'webhook')).toBeUndefined();
  });

  test('a workspace bearer token beside X-Webhook-Token does not hide the webhook token', () => {
    expect(presentedProjectToken(request({ authorization: 'Bearer sk_service_abc', 'x-webhook-token': WEBHOOK }), 'webhook')).toBe(WEBHOOK);
  });

  test('a rewind token is read from Bearer or ?token=, not from X-Webhook-Token', () => {
    expect(presentedProjectToken(request({}, { token: REWIND }), 'rewind')).toBe(REWIND);
    expect(presentedProjectToken(request({ authorization: `bearer ${REWIND}` }), 'rewind')).toBe(REWIND);
    expect(presentedProjectToken(request({ 'x-webhook-token': REWIND }), 'rewind')).toBeUndefined();
  });

  test("a token of another kind is not presented as this kind's", () => {
    expect(presentedProjectToken(request({ authorization: `Bearer ${REWIND}` }), 'webhook')).toBeUndefined();
    expect(presentedProjectToken(request({}, { token: WEBHOOK }), 'rewind')).toBeUndefined();
  });

  test('anything in X-Webhook-Token counts as trying a webhook token (and is refused as a wrong one)', () => {
    expect(triesProjectToken(request({ 'x-webhook-token': 'letmein' }), 'webhook')).toBe(true);
    expect(triesProjectToken(request({ authorization: 'Bearer sk_service_abc' }), 'webhook')).toBe(false);
  });
});
