import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { CODEHOST_SIGN_IN_SCOPES, OAuthFlow, OIDC_SIGN_IN_SCOPES, SIGN_IN_PROVIDERS, SignInProvider } from './auth-providers.constants';
import { AuthProviderError } from './auth-providers.errors';
import { providerJson, ProviderUnavailable } from './provider-http';

/** Where a flow's provider is reached. */
export interface ProviderEndpoints {
  authorizationURL: string;
  tokenURL: string;
  /** OpenID providers: the userinfo endpoint; the code host: its API base. */
  identityURL: string;
}

export interface ProviderSetup {
  clientID: string;
  clientSecret: string;
  scopes: string[];
}

const LABELS: Record<string, string> = { 'accounts.google.com': 'Google', 'login.microsoftonline.com': 'Microsoft', 'github.com': 'GitHub' };

/**
 * The configured providers: which are offered (client id and secret both set), their client
 * settings and endpoints. An OpenID provider's endpoints come from its discovery document, read
 * at its first use and kept for the life of the process (a failed read is tried again at the next
 * sign-in, so a provider that was down does not stay unusable); the code host's are fixed.
 */
@Injectable()
export class ProviderDirectory {
  private readonly discovered = new Map<'idpa' | 'idpc', Promise<ProviderEndpoints>>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The sign-in providers offered, in the order the login page lists them. */
  offered(): SignInProvider[] {
    return SIGN_IN_PROVIDERS.filter((p) => this.credentials(p) !== undefined);
  }

  /** The name the login page shows: the well-known provider behind the configured address, else its host. */
  label(provider: SignInProvider): string {
    const host = new URL(provider === 'codehost' ? this.config.codehostOauthUrl : provider === 'idpa' ? this.config.idpaIssuerUrl : this.config.idpcIssuerUrl).host;
    return LABELS[host] ?? host;
  }

  /** A flow's client settings; throws the 404 of a provider that is not offered. */
  setup(flow: OAuthFlow): ProviderSetup {
    const credentials = this.credentials(flow === 'repo' ? 'codehost' : flow);
    if (!credentials) throw AuthProviderError.notOffered(flow);
    const scopes = flow === 'repo' ? this.config.codehostRepoScopes.split(' ') : flow === 'codehost' ? CODEHOST_SIGN_IN_SCOPES : OIDC_SIGN_IN_SCOPES;
    return { ...credentials, scopes };
  }

  async endpoints(flow: OAuthFlow): Promise<ProviderEndpoints> {
    if (flow === 'codehost' || flow === 'repo') {
      const base = this.config.codehostOauthUrl;
      return { authorizationURL: `${base}/authorize`, tokenURL: `${base}/access_token`, identityURL: this.config.codehostApiUrl };
    }
    let endpoints = this.discovered.get(flow);
    if (!endpoints) {
      endpoints = discover(flow === 'idpa' ? this.config.idpaIssuerUrl : this.config.idpcIssuerUrl);
      this.discovered.set(flow, endpoints);
      endpoints.catch(() => this.discovered.delete(flow));
    }
    return endpoints;
  }

  private credentials(provider: SignInProvider): { clientID: string; clientSecret: string } | undefined {
    const [id, secret] =
      provider === 'idpa'
        ? [this.config.idpaClientId, this.config.idpaClientSecret]
        : provider === 'idpc'
          ? [this.config.idpcClientId, this.config.idpcClientSecret]
          : [this.config.codehostClientId, this.config.codehostClientSecret];
    return id && secret ? { clientID: id, clientSecret: secret } : undefined;
  }
}

/**
 * Reads an issuer's OpenID discovery document. The `issuer` it states is not compared with the
 * configured one: Microsoft's multi-tenant issuer states a `{tenantid}` template. Baton trusts
 * the endpoints it reads from the configured address over TLS, and reads identities from the
 * userinfo endpoint with the access token it was given, never from an unverified ID token.
 */
async function discover(issuer: string): Promise<ProviderEndpoints> {
  const document = await providerJson(`${issuer}/.well-known/openid-configuration`);
  const field = (name: string): string => {
    const value = typeof document === 'object' && document !== null ? (document as Record<string, unknown>)[name] : undefined;
    if (typeof value !== 'string' || !/^https?:\/\//.test(value)) throw new ProviderUnavailable(`the discovery document of ${issuer} has no ${name}`);
    return value;
  };
  return { authorizationURL: field('authorization_endpoint'), tokenURL: field('token_endpoint'), identityURL: field('userinfo_endpoint') };
}
