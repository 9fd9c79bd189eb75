import { ConfigError, loadConfig } from '../app-config';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/baton');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
}

describe('sign-in variables', () => {
  test('default to Google, Microsoft and GitHub, with no provider configured and the repository connection asking for repo', () => {
    const config = loadConfig({}, '/srv/baton');
    expect(config).toMatchObject({
      idpaIssuerUrl: 'https://accounts.google.com',
      idpcIssuerUrl: 'https://login.microsoftonline.com/common/v2.0',
      codehostOauthUrl: 'https://github.com/login/oauth',
      codehostApiUrl: 'https://api.github.com',
      codehostRepoScopes: 'repo',
      idpaClientId: undefined,
      codehostClientSecret: undefined,
    });
  });

  test('a client id without its secret, or a secret without its id, stops the boot naming the pair, never the secret', () => {
    const found = problems({ IDPA_CLIENT_ID: 'id-only', CODEHOST_CLIENT_SECRET: 'hush-Q8z' });
    expect(found).toEqual(['IDPA_CLIENT_ID and IDPA_CLIENT_SECRET must be set together', 'CODEHOST_CLIENT_ID and CODEHOST_CLIENT_SECRET must be set together']);
    expect(found.join(' ')).not.toContain('hush-Q8z');
    expect(problems({ IDPC_CLIENT_ID: 'id', IDPC_CLIENT_SECRET: 'secret' })).toEqual([]);
  });

  test('issuer and endpoint addresses must be http(s) URLs; a trailing slash is dropped', () => {
    expect(problems({ IDPA_ISSUER_URL: 'accounts.example.com' })).toEqual(['IDPA_ISSUER_URL must be an absolute http(s) URL']);
    expect(loadConfig({ CODEHOST_API_URL: 'https://git.example.com/api/v3/' }, '/srv/baton').codehostApiUrl).toBe('https://git.example.com/api/v3');
  });

  test('CODEHOST_REPO_SCOPES takes space- or comma-separated scope names', () => {
    expect(loadConfig({ CODEHOST_REPO_SCOPES: 'repo, read:org  workflow' }, '/srv/baton').codehostRepoScopes).toBe('repo read:org workflow');
    expect(problems({ CODEHOST_REPO_SCOPES: ' , ' })).toEqual(['CODEHOST_REPO_SCOPES must name at least one scope']);
    expect(problems({ CODEHOST_REPO_SCOPES: 'repo "all"' })).toEqual(['CODEHOST_REPO_SCOPES must be OAuth scope names (printable, no quotes or backslashes)']);
  });
});
