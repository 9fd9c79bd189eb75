import type { ProviderIdentity } from '../accounts/accounts.service';
import { UnusableIdentity } from './provider-http';

type Json = Record<string, unknown>;

function object(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UnusableIdentity(`${what} is not a JSON object`);
  return value as Json;
}

function optionalText(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * The person an OpenID provider's userinfo answer names. The address counts as verified only when
 * the provider says so (`email_verified` true, or the string "true" some providers send): an
 * address a provider does not vouch for would let whoever typed it into their profile take over
 * the Baton account of its real owner.
 */
export function oidcIdentity(provider: 'idpa' | 'idpc', userinfo: unknown): ProviderIdentity {
  const claims = object(userinfo, 'the userinfo answer');
  const subject = optionalText(claims.sub);
  if (!subject) throw new UnusableIdentity('the userinfo answer has no sub');
  const email = optionalText(claims.email);
  const emailVerified = email !== null && (claims.email_verified === true || claims.email_verified === 'true');
  return { provider, subject, email, emailVerified, name: optionalText(claims.name) };
}

/** The code host's account (`GET /user`): its stable numeric id, its login and display name. */
export function codehostAccount(user: unknown): { id: string; login: string; name: string | null } {
  const account = object(user, "the code host's /user answer");
  const id = typeof account.id === 'number' || typeof account.id === 'string' ? String(account.id) : '';
  const login = optionalText(account.login);
  if (!id || !login) throw new UnusableIdentity("the code host's /user answer has no id or login");
  return { id, login, name: optionalText(account.name) };
}

/**
 * The address a code-host sign-in uses (`GET /user/emails`): the primary one, verified or not
 * (unverified leads to the e-mail-required page), or none.
 */
export function codehostPrimaryEmail(emails: unknown): { email: string | null; verified: boolean } {
  if (!Array.isArray(emails)) throw new UnusableIdentity("the code host's /user/emails answer is not a list");
  const primary = emails.map((e) => object(e, 'an address')).find((e) => e.primary === true && optionalText(e.email));
  if (!primary) return { email: null, verified: false };
  return { email: optionalText(primary.email), verified: primary.verified === true };
}

/** The code host's sign-in identity: subject is the account id (a login can be renamed and reused). */
export function codehostIdentity(user: unknown, emails: unknown): ProviderIdentity {
  const account = codehostAccount(user);
  const { email, verified } = codehostPrimaryEmail(emails);
  return { provider: 'codehost', subject: account.id, email, emailVerified: verified, name: account.name ?? account.login };
}

/** Scopes a token response granted (`scope`, space- or comma-separated as GitHub writes it), else those asked for. */
export function grantedScopes(params: unknown, asked: string[]): string[] {
  const scope = typeof params === 'object' && params !== null ? (params as Json).scope : undefined;
  if (typeof scope !== 'string') return [...asked];
  return [...new Set(scope.split(/[\s,]+/).filter(Boolean))];
}
