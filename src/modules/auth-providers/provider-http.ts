import { PROVIDER_REQUEST_TIMEOUT_MS } from './auth-providers.constants';

/** A provider that could not be reached, or answered something Baton cannot use. Never carries a token. */
export class ProviderUnavailable extends Error {
  override readonly name = 'ProviderUnavailable';
}

/** A provider's answer that names no usable identity (no subject, no account id). */
export class UnusableIdentity extends Error {
  override readonly name = 'UnusableIdentity';
}

/**
 * GETs a provider's JSON (discovery document, userinfo, the code host's API), with the access
 * token as bearer when given, within PROVIDER_REQUEST_TIMEOUT_MS. Failures name the host and the
 * status, never the token.
 */
export async function providerJson(url: string, bearer?: string): Promise<unknown> {
  const host = new URL(url).host;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', 'user-agent': 'Baton', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      redirect: 'error',
      signal: AbortSignal.timeout(PROVIDER_REQUEST_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new ProviderUnavailable(`${host} could not be reached`, { cause });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProviderUnavailable(`${host} answered ${response.status}`);
  }
  try {
    return await response.json();
  } catch (cause) {
    throw new ProviderUnavailable(`${host} answered something other than JSON`, { cause });
  }
}
