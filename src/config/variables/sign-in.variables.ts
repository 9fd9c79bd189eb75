import { httpUrl, text } from '../config.parsers';
import { variable } from './variable';

/** A client id: public by OAuth's design (it travels in every authorization URL), so not sensitive. */
function clientId(name: string, provider: string) {
  return variable<string | undefined>({ name, description: `${provider} OAuth client id; with its secret, offers that sign-in (hosted)`, sensitive: false, parse: text });
}

function clientSecret(name: string, provider: string) {
  return variable<string | undefined>({ name, description: `${provider} OAuth client secret`, sensitive: true, parse: text });
}

/**
 * Hosted sign-in through identity providers (spec §5 flow 1) and the code-host repository
 * connection (flow 2). A provider is offered when both its client id and secret are set.
 */
export const SIGN_IN_VARIABLES = {
  idpaClientId: clientId('IDPA_CLIENT_ID', 'first OpenID Connect provider (idpa)'),
  idpaClientSecret: clientSecret('IDPA_CLIENT_SECRET', 'first OpenID Connect provider (idpa)'),
  idpaIssuerUrl: variable({
    name: 'IDPA_ISSUER_URL',
    description: 'issuer of the first OpenID Connect provider; its endpoints are read from <issuer>/.well-known/openid-configuration',
    sensitive: false,
    parse: httpUrl,
    default: 'https://accounts.google.com',
  }),
  idpcClientId: clientId('IDPC_CLIENT_ID', 'second OpenID Connect provider (idpc)'),
  idpcClientSecret: clientSecret('IDPC_CLIENT_SECRET', 'second OpenID Connect provider (idpc)'),
  idpcIssuerUrl: variable({
    name: 'IDPC_ISSUER_URL',
    description: 'issuer of the second OpenID Connect provider; its endpoints are read from <issuer>/.well-known/openid-configuration',
    sensitive: false,
    parse: httpUrl,
    default: 'https://login.microsoftonline.com/common/v2.0',
  }),
  codehostClientId: clientId('CODEHOST_CLIENT_ID', 'code host'),
  codehostClientSecret: clientSecret('CODEHOST_CLIENT_SECRET', 'code host'),
  codehostOauthUrl: variable({
    name: 'CODEHOST_OAUTH_URL',
    description: "base of the code host's OAuth 2 endpoints: <url>/authorize and <url>/access_token",
    sensitive: false,
    parse: httpUrl,
    default: 'https://github.com/login/oauth',
  }),
  codehostApiUrl: variable({
    name: 'CODEHOST_API_URL',
    description: "base of the code host's REST API (<url>/user and <url>/user/emails name the account and its verified address)",
    sensitive: false,
    parse: httpUrl,
    default: 'https://api.github.com',
  }),
  codehostRepoScopes: variable({
    name: 'CODEHOST_REPO_SCOPES',
    description: 'scopes asked for when a person connects their repositories (space-separated); sign-in itself asks only for read:user and user:email',
    sensitive: false,
    parse: scopeList,
    default: 'repo',
  }),
} as const;

/** Space- or comma-separated OAuth scopes, kept space-separated. */
function scopeList(raw: string): string {
  const scopes = raw.split(/[\s,]+/).filter(Boolean);
  if (scopes.length === 0) throw new Error('must name at least one scope');
  if (scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))) throw new Error('must be OAuth scope names (printable, no quotes or backslashes)');
  return scopes.join(' ');
}

type SignInValues = { [K in keyof typeof SIGN_IN_VARIABLES]: unknown };

/** A client id without its secret, or the other way round, is a half-configured provider: the boot names it. */
export function signInProblems(values: SignInValues): string[] {
  const pairs: [string, unknown, unknown][] = [
    ['IDPA', values.idpaClientId, values.idpaClientSecret],
    ['IDPC', values.idpcClientId, values.idpcClientSecret],
    ['CODEHOST', values.codehostClientId, values.codehostClientSecret],
  ];
  return pairs.filter(([, id, secret]) => Boolean(id) !== Boolean(secret)).map(([prefix]) => `${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
}
