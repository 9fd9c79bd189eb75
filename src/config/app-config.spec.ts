import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppConfig, ConfigError, loadConfig, publicConfig } from './app-config';

const REPO_ROOT = resolve(__dirname, '..', '..');

/** The ConfigError thrown by loadConfig for `env`; fails the test when it does not throw one. */
function configError(env: Record<string, string>, cwd = '/srv/baton'): ConfigError {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(Object.keys(env))}`);
}

describe('loadConfig', () => {
  let cwd: string;

  beforeEach(() => {
    // A directory with no .git, so nothing of the test runner's checkout leaks in.
    cwd = mkdtempSync(join(tmpdir(), 'baton-config-'));
  });
  afterEach(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  describe('defaults', () => {
    test('an empty environment gives the defaults of the specification', () => {
      const config = loadConfig({}, cwd);
      expect(config.port).toBe(7878);
      expect(config.host).toBe('127.0.0.1');
      expect(config.baseUrl).toBe('http://localhost:7878');
      expect(config.autoSummaryIntervalS).toBe(600);
      expect(config.afterLoginUrl).toBe('/dashboard');
      expect(config.mode).toBe('self-hosted');
      expect(config.isHosted).toBe(false);
      expect(config.isProduction).toBe(false);
      expect(config.dbUrl).toBeUndefined();
      expect(config.databaseType).toBe('sqlite');
    });

    test('the data directory defaults to data/ under the working directory and holds service.db', () => {
      const config = loadConfig({}, cwd);
      expect(config.dataDir).toBe(join(cwd, 'data'));
      expect(config.sqlitePath).toBe(join(cwd, 'data', 'service.db'));
    });

    test('a relative SERVICE_DATA_DIR is resolved against the working directory and the SQLite file follows it', () => {
      const config = loadConfig({ SERVICE_DATA_DIR: 'var/baton' }, cwd);
      expect(config.dataDir).toBe(join(cwd, 'var', 'baton'));
      expect(config.sqlitePath).toBe(join(cwd, 'var', 'baton', 'service.db'));
    });

    test('an absolute SERVICE_DATA_DIR is used as given', () => {
      const config = loadConfig({ SERVICE_DATA_DIR: '/var/lib/baton' }, cwd);
      expect(config.dataDir).toBe('/var/lib/baton');
      expect(config.sqlitePath).toBe('/var/lib/baton/service.db');
    });

    test('a relative SERVICE_DB is resolved against the working directory, not the data directory', () => {
      const config = loadConfig({ SERVICE_DB: 'db/custom.sqlite', SERVICE_DATA_DIR: 'elsewhere' }, cwd);
      expect(config.sqlitePath).toBe(join(cwd, 'db', 'custom.sqlite'));
    });

    test('an absolute SERVICE_DB is used as given', () => {
      expect(loadConfig({ SERVICE_DB: '/tmp/baton-x.db' }, cwd).sqlitePath).toBe('/tmp/baton-x.db');
    });

    test('explicit values override the defaults', () => {
      const config = loadConfig(
        {
          SERVICE_PORT: '9000',
          SERVICE_HOST: '0.0.0.0',
          SERVICE_AUTO_SUMMARY_INTERVAL: '30',
          SERVICE_AFTER_LOGIN_URL: '/home',
          APP_URL: 'https://baton.example.com/',
        },
        cwd,
      );
      expect(config.port).toBe(9000);
      expect(config.host).toBe('0.0.0.0');
      expect(config.autoSummaryIntervalS).toBe(30);
      expect(config.afterLoginUrl).toBe('/home');
      // A trailing slash would double up in the URLs built from it.
      expect(config.baseUrl).toBe('https://baton.example.com');
    });

    test('an empty variable counts as unset and takes the default', () => {
      const config = loadConfig({ SERVICE_PORT: '', APP_URL: '' }, cwd);
      expect(config.port).toBe(7878);
      expect(config.baseUrl).toBe('http://localhost:7878');
    });
  });

  describe('aliases', () => {
    test('SERVICE_BASE_URL is read when APP_URL is unset', () => {
      expect(loadConfig({ SERVICE_BASE_URL: 'https://alias.example.com' }, cwd).baseUrl).toBe('https://alias.example.com');
    });

    test('APP_URL wins over SERVICE_BASE_URL when both are set', () => {
      const config = loadConfig({ APP_URL: 'https://primary.example.com', SERVICE_BASE_URL: 'https://alias.example.com' }, cwd);
      expect(config.baseUrl).toBe('https://primary.example.com');
    });

    test('SERVICE_SESSION_SECRET is read when SESSION_SECRET is unset', () => {
      const secret = 'alias-session-secret-0123456789';
      expect(loadConfig({ SERVICE_SESSION_SECRET: secret }, cwd).sessionSecret).toBe(secret);
    });

    test('the aliases satisfy the production requirements', () => {
      const config = loadConfig({ NODE_ENV: 'production', SERVICE_SESSION_SECRET: 'alias-session-secret-0123456789', SERVICE_BASE_URL: 'https://baton.example.com' }, cwd);
      expect(config.isProduction).toBe(true);
      expect(config.baseUrl).toBe('https://baton.example.com');
    });
  });

  describe('bad values', () => {
    test.each([
      ['SERVICE_PORT', 'abc'],
      ['SERVICE_PORT', '70000'],
      ['SERVICE_PORT', '-1'],
      ['SERVICE_PORT', '80.5'],
      ['SERVICE_MODE', 'cloud'],
      ['APP_URL', 'notaurl'],
      ['APP_URL', 'ftp://baton.example.com'],
      ['SERVICE_BASE_URL', 'notaurl'],
      ['SERVICE_DB_URL', 'mysql://x'],
      ['SERVICE_DB_URL', 'not a url'],
      ['SERVICE_CACHE_URL', 'http://cache:6379'],
      ['SERVICE_AUTO_SUMMARY_INTERVAL', '0'],
      ['SERVICE_AUTO_SUMMARY_INTERVAL', 'ten'],
      ['SERVICE_GIT_SHA', 'not-a-sha'],
      ['SERVICE_BODY_LIMIT', '10'],
      ['SERVICE_LOG_LEVEL', 'loud'],
      ['SESSION_SECRET', 'short'],
      ['SERVICE_SESSION_SECRET', 'short'],
    ])('%s=%s is refused with a ConfigError naming the variable', (name, value) => {
      const error = configError({ [name]: value }, cwd);
      expect(error.message).toContain(name);
      expect(error.problems.some((p) => p.startsWith(name))).toBe(true);
    });

    test('every bad variable is reported at once, not only the first', () => {
      const error = configError({ SERVICE_PORT: 'abc', SERVICE_MODE: 'cloud', APP_URL: 'notaurl' }, cwd);
      expect(error.problems).toHaveLength(3);
      expect(error.message).toContain('SERVICE_PORT');
      expect(error.message).toContain('SERVICE_MODE');
      expect(error.message).toContain('APP_URL');
    });

    test('the message of a non-sensitive variable says what was wrong', () => {
      const error = configError({ SERVICE_PORT: '70000' }, cwd);
      expect(error.message).toMatch(/SERVICE_PORT must be between 0 and 65535/);
    });

    test.each([
      ['SERVICE_DB_URL', 'mysql://user:hunter2@h/db', ['hunter2', 'mysql://user']],
      ['SERVICE_DB_URL', 'postgres//baton:pg-pass-9Xq@db/baton', ['pg-pass-9Xq', 'postgres//baton']],
      ['SERVICE_CACHE_URL', 'http://default:cache-pass-7Kw@cache:6379', ['cache-pass-7Kw', 'default:']],
      ['SERVICE_CACHE_URL', 'redis://:cache-pass-7Kw@[broken', ['cache-pass-7Kw', '[broken']],
      ['SESSION_SECRET', 'tiny-9Zq', ['tiny-9Zq']],
      ['SERVICE_SESSION_SECRET', 'tiny-9Zq', ['tiny-9Zq']],
    ])('a bad sensitive %s is named but its value never appears in the message', (name, value, secrets) => {
      const error = configError({ [name]: value }, cwd);
      expect(error.message).toContain(name);
      expect(error.message).not.toContain(value);
      for (const secret of secrets) expect(error.message).not.toContain(secret);
      expect(JSON.stringify(error.problems)).not.toContain(value);
    });
  });

  describe('hosted and production requirements', () => {
    test('hosted mode without SERVICE_DB_URL is refused, naming SERVICE_DB_URL', () => {
      const error = configError({ SERVICE_MODE: 'hosted' }, cwd);
      expect(error.message).toMatch(/SERVICE_DB_URL is required/);
    });

    test('hosted mode with SERVICE_DB_URL is accepted and uses Postgres', () => {
      const config = loadConfig({ SERVICE_MODE: 'hosted', SERVICE_DB_URL: 'postgres://baton@db:5432/baton' }, cwd);
      expect(config.isHosted).toBe(true);
      expect(config.databaseType).toBe('postgres');
    });

    test('NODE_ENV=production without SESSION_SECRET is refused, naming SESSION_SECRET', () => {
      const error = configError({ NODE_ENV: 'production', APP_URL: 'https://baton.example.com' }, cwd);
      expect(error.message).toContain('SESSION_SECRET');
      expect(error.message).not.toContain('APP_URL is required');
    });

    test('NODE_ENV=production without APP_URL is refused, naming APP_URL', () => {
      const error = configError({ NODE_ENV: 'production', SESSION_SECRET: 'a-real-production-secret-0123456789' }, cwd);
      expect(error.message).toContain('APP_URL is required');
      expect(error.message).not.toContain('SESSION_SECRET is required');
    });

    test('NODE_ENV=production with neither names both', () => {
      const error = configError({ NODE_ENV: 'production' }, cwd);
      expect(error.message).toContain('SESSION_SECRET');
      expect(error.message).toContain('APP_URL');
    });

    test('NODE_ENV=production refuses the built-in development session secret even when set explicitly', () => {
      const development = loadConfig({}, cwd).sessionSecret;
      const error = configError({ NODE_ENV: 'production', APP_URL: 'https://baton.example.com', SESSION_SECRET: development }, cwd);
      expect(error.message).toContain('SESSION_SECRET');
      expect(error.message).not.toContain(development);
    });

    test('NODE_ENV=production with SESSION_SECRET and APP_URL starts', () => {
      const config = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'a-real-production-secret-0123456789', APP_URL: 'https://baton.example.com' }, cwd);
      expect(config.isProduction).toBe(true);
    });
  });

  describe('database type', () => {
    test('sqlite without SERVICE_DB_URL', () => {
      expect(loadConfig({ SERVICE_DB: 'x.db' }, cwd).databaseType).toBe('sqlite');
    });

    test.each(['postgres://baton:pw@db:5432/baton', 'postgresql://db/baton'])('postgres with SERVICE_DB_URL=%s', (url) => {
      const config = loadConfig({ SERVICE_DB_URL: url, SERVICE_DB: 'ignored.db' }, cwd);
      expect(config.databaseType).toBe('postgres');
      expect(config.dbUrl).toBe(url);
    });
  });

  describe('git sha', () => {
    test('outside a checkout it is still 12 hexadecimal characters', () => {
      expect(loadConfig({}, cwd).gitSha).toMatch(/^[0-9a-f]{12}$/);
    });

    test('SERVICE_GIT_SHA is honoured, lower-cased and cut to 12 characters', () => {
      const sha = 'ABCDEF0123456789ABCDEF0123456789ABCDEF01';
      expect(loadConfig({ SERVICE_GIT_SHA: sha }, cwd).gitSha).toBe('abcdef012345');
    });

    test('a short SERVICE_GIT_SHA still gives 12 hexadecimal characters, starting with it', () => {
      const gitSha = loadConfig({ SERVICE_GIT_SHA: 'abc1234' }, cwd).gitSha;
      expect(gitSha).toMatch(/^[0-9a-f]{12}$/);
      expect(gitSha.startsWith('abc1234')).toBe(true);
    });

    test('in a checkout it is the first 12 characters of HEAD', () => {
      const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
      expect(loadConfig({}, REPO_ROOT).gitSha).toBe(head.slice(0, 12));
    });

    test('a branch ref, a detached HEAD and a packed ref are all read from .git', () => {
      const sha = '0123456789abcdef0123456789abcdef01234567';
      const git = join(cwd, '.git');
      mkdirSync(join(git, 'refs', 'heads'), { recursive: true });

      writeFileSync(join(git, 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(git, 'refs', 'heads', 'main'), `${sha}\n`);
      expect(loadConfig({}, cwd).gitSha).toBe('0123456789ab');

      writeFileSync(join(git, 'HEAD'), `${'f'.repeat(40)}\n`);
      expect(loadConfig({}, cwd).gitSha).toBe('ffffffffffff');

      writeFileSync(join(git, 'HEAD'), 'ref: refs/heads/packed\n');
      writeFileSync(join(git, 'packed-refs'), `# pack-refs with: peeled\n${'e'.repeat(40)} refs/heads/packed\n`);
      expect(loadConfig({}, cwd).gitSha).toBe('eeeeeeeeeeee');
    });

    test('SERVICE_GIT_SHA wins over the checkout', () => {
      expect(loadConfig({ SERVICE_GIT_SHA: 'deadbeefdeadbeef' }, REPO_ROOT).gitSha).toBe('deadbeefdead');
    });
  });

  describe('version', () => {
    test('SERVICE_VERSION is honoured', () => {
      expect(loadConfig({ SERVICE_VERSION: '9.9.9-test' }, cwd).version).toBe('9.9.9-test');
    });

    test('without SERVICE_VERSION it is the version in package.json', () => {
      const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
      expect(loadConfig({}, cwd).version).toBe(pkg.version);
    });
  });
});

describe('publicConfig', () => {
  const SECRETS = {
    SESSION_SECRET: 'session-secret-Q7xV2mN9pL4k',
    SERVICE_DB_URL: 'postgres://baton:db-password-R8tY3@db.internal:5432/baton',
    SERVICE_CACHE_URL: 'redis://default:cache-password-W5eZ1@cache.internal:6379/0',
    EMAIL_API_KEY: 'email-api-key-H2jK8sD4',
    BILLING_SECRET_KEY: 'billing-secret-key-P3oI9uY6',
    BILLING_WEBHOOK_SECRET: 'billing-webhook-secret-L1kJ7hG5',
    SITE_PASSWORD: 'site-password-M6nB0vC2',
  };
  const FRAGMENTS = ['db-password-R8tY3', 'cache-password-W5eZ1', 'db.internal', 'cache.internal'];

  function withSecrets(): AppConfig {
    return loadConfig({ ...SECRETS, SERVICE_MODE: 'hosted' }, '/srv/baton');
  }

  test('contains none of the sensitive values', () => {
    const shown = JSON.stringify(publicConfig(withSecrets()));
    for (const [name, value] of Object.entries(SECRETS)) {
      expect({ name, leaked: shown.includes(value) }).toEqual({ name, leaked: false });
    }
    for (const fragment of FRAGMENTS) expect(shown).not.toContain(fragment);
  });

  test('reports cache, e-mail, billing and site password as configured booleans', () => {
    const shown = publicConfig(withSecrets());
    expect(shown.cache_configured).toBe(true);
    expect(shown.email_configured).toBe(true);
    expect(shown.billing_configured).toBe(true);
    expect(shown.site_password_enabled).toBe(true);
    expect(shown.mode).toBe('hosted');
    expect(shown.database).toBe('postgres');
  });

  test('reports them unconfigured when unset', () => {
    const shown = publicConfig(loadConfig({}, '/srv/baton'));
    expect(shown).toMatchObject({
      cache_configured: false,
      email_configured: false,
      billing_configured: false,
      site_password_enabled: false,
      mode: 'self-hosted',
      database: 'sqlite',
    });
  });

  test('every value it shows is a plain scalar, so no nested object can smuggle a secret out', () => {
    for (const [key, value] of Object.entries(publicConfig(withSecrets()))) {
      expect({ key, type: value === null ? 'null' : typeof value }).toEqual({ key, type: expect.stringMatching(/^(string|number|boolean|null)$/) });
    }
  });

  test('shows the effective non-sensitive settings', () => {
    const shown = publicConfig(loadConfig({ SERVICE_VERSION: '1.2.3', SERVICE_GIT_SHA: 'abcdef0123456789' }, '/srv/baton'));
    expect(shown).toMatchObject({
      version: '1.2.3',
      git_sha: 'abcdef012345',
      base_url: 'http://localhost:7878',
      port: 7878,
      host: '127.0.0.1',
      after_login_url: '/dashboard',
      auto_summary_interval: 600,
      node_version: process.version,
    });
    expect(shown.node_version).toMatch(/^v24\./);
  });
});
