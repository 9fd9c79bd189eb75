import { UnusableIdentity } from './provider-http';
import { codehostIdentity, grantedScopes, oidcIdentity } from './provider-identity';

describe('oidcIdentity', () => {
  test('reads the subject, the address, whether the provider verified it, and the name', () => {
    expect(oidcIdentity('idpa', { sub: 'abc', email: 'Ada@Example.test', email_verified: true, name: ' Ada ' })).toEqual({
      provider: 'idpa',
      subject: 'abc',
      email: 'Ada@Example.test',
      emailVerified: true,
      name: 'Ada',
    });
  });

  test('an address counts as verified only when the provider says so (true, or the string "true")', () => {
    expect(oidcIdentity('idpc', { sub: 's', email: 'a@b.test', email_verified: 'true' }).emailVerified).toBe(true);
    expect(oidcIdentity('idpc', { sub: 's', email: 'a@b.test' }).emailVerified).toBe(false);
    expect(oidcIdentity('idpc', { sub: 's', email: 'a@b.test', email_verified: 'yes' }).emailVerified).toBe(false);
    expect(oidcIdentity('idpc', { sub: 's', email_verified: true })).toMatchObject({ email: null, emailVerified: false });
  });

  test('an answer without a subject, or not an object, is unusable', () => {
    expect(() => oidcIdentity('idpa', { email: 'a@b.test', email_verified: true })).toThrow(UnusableIdentity);
    expect(() => oidcIdentity('idpa', { sub: '  ' })).toThrow(UnusableIdentity);
    expect(() => oidcIdentity('idpa', ['sub'])).toThrow(UnusableIdentity);
  });
});

describe('codehostIdentity', () => {
  const user = { id: 4242, login: 'octo', name: null };

  test('the subject is the account id, the address the primary one with its verified flag, the name the login when none is set', () => {
    const emails = [
      { email: 'other@b.test', primary: false, verified: true },
      { email: 'octo@b.test', primary: true, verified: true },
    ];
    expect(codehostIdentity(user, emails)).toEqual({ provider: 'codehost', subject: '4242', email: 'octo@b.test', emailVerified: true, name: 'octo' });
  });

  test('an unverified primary address is passed on unverified; a verified secondary one does not replace it', () => {
    const emails = [
      { email: 'verified@b.test', primary: false, verified: true },
      { email: 'octo@b.test', primary: true, verified: false },
    ];
    expect(codehostIdentity(user, emails)).toMatchObject({ email: 'octo@b.test', emailVerified: false });
    expect(codehostIdentity(user, [])).toMatchObject({ email: null, emailVerified: false });
  });

  test('an account without an id or login, or addresses that are not a list, are unusable', () => {
    expect(() => codehostIdentity({ login: 'octo' }, [])).toThrow(UnusableIdentity);
    expect(() => codehostIdentity({ id: 1 }, [])).toThrow(UnusableIdentity);
    expect(() => codehostIdentity(user, { email: 'x' })).toThrow(UnusableIdentity);
  });
});

describe('grantedScopes', () => {
  test('reads the scopes a token answer granted, comma- or space-separated, else those asked for', () => {
    expect(grantedScopes({ scope: 'repo,read:org' }, ['repo'])).toEqual(['repo', 'read:org']);
    expect(grantedScopes({ scope: 'repo read:org' }, ['repo'])).toEqual(['repo', 'read:org']);
    expect(grantedScopes({}, ['repo'])).toEqual(['repo']);
  });
});
