import { parseSubject, subjectOf, tenantOfSubject } from './oauth-subject.util';

const TENANT = '3f2b8c1e-5d4a-4b6f-9e21-7c0d1a2b3c4d';
const ACCOUNT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe('OAuth subjects: a person in one workspace', () => {
  test('a subject names its workspace and account, and reads back', () => {
    const subject = subjectOf(TENANT, ACCOUNT);
    expect(subject).toBe(`${TENANT}:${ACCOUNT}`);
    expect(parseSubject(subject)).toEqual({ tenantId: TENANT, accountId: ACCOUNT });
    expect(tenantOfSubject(subject)).toBe(TENANT);
  });

  test.each([
    ['no separator', TENANT],
    ['a workspace that is not an id', `acme:${ACCOUNT}`],
    ['an extra part', `${TENANT}:${ACCOUNT}:x`],
    ['an empty account', `${TENANT}:`],
    ['an account with a space', `${TENANT}:a b`],
    ['not a string', 42],
  ])('%s is no subject of Baton', (_case, value) => {
    expect(parseSubject(value)).toBeUndefined();
    expect(tenantOfSubject(value)).toBeUndefined();
  });
});
