import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { DEV_SESSION_SECRET, VariableSpec, VARIABLES, Variables } from './config.variables';
import { signInProblems } from './variables/sign-in.variables';

type ValueOf<S> = S extends VariableSpec<infer T> ? T : never;
type RawValues = { [K in keyof Variables]: ValueOf<Variables[K]> };

export type DatabaseType = 'sqlite' | 'postgres';

/** The validated configuration of one Baton process. Built once at start-up. */
export interface AppConfig extends RawValues {
  version: string;
  gitSha: string;
  databaseType: DatabaseType;
  /** Absolute path of the SQLite file (only meaningful when databaseType is sqlite). */
  sqlitePath: string;
  isProduction: boolean;
  isHosted: boolean;
  /** Which variables were set explicitly (not defaulted). */
  explicitlySet: ReadonlySet<string>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const UNKNOWN_SHA = '000000000000';

/**
 * Reads and validates the environment. Throws a ConfigError listing every bad
 * variable by name; sensitive values are never repeated in the message.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): AppConfig {
  const problems: string[] = [];
  const explicitlySet = new Set<string>();
  const values: Record<string, unknown> = {};

  for (const [key, spec] of Object.entries(VARIABLES) as [keyof Variables, VariableSpec<unknown>][]) {
    const names = [spec.name, ...(spec.aliases ?? [])];
    const setName = names.find((n) => env[n] !== undefined && env[n] !== '');
    if (setName === undefined) {
      values[key] = spec.default;
      continue;
    }
    explicitlySet.add(spec.name);
    try {
      values[key] = spec.parse(env[setName] as string);
    } catch (err) {
      const reason = (err as Error).message;
      problems.push(`${setName} ${spec.sensitive ? reason.replace(/"[^"]*"/g, '(value hidden)') : reason}`);
    }
  }

  const raw = values as RawValues;
  const isProduction = raw.nodeEnv === 'production';
  if (raw.mode === 'hosted' && !raw.dbUrl) problems.push('SERVICE_DB_URL is required when SERVICE_MODE is hosted');
  if (raw.mode !== 'hosted' && raw.tenantDbUrls.length > 0)
    problems.push('SERVICE_TENANT_DB_URLS needs SERVICE_MODE hosted: a self-hosted instance keeps its one project database');
  problems.push(...signInProblems(raw));
  if (isProduction) {
    if (!explicitlySet.has('SESSION_SECRET')) problems.push('SESSION_SECRET is required when NODE_ENV is production');
    if (!explicitlySet.has('APP_URL')) problems.push('APP_URL is required when NODE_ENV is production');
  }
  if (raw.sessionSecret === DEV_SESSION_SECRET && isProduction) {
    problems.push('SESSION_SECRET must not be the development placeholder in production');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = resolve(cwd, raw.dataDir);
  const sqlitePath = raw.dbFile ? (isAbsolute(raw.dbFile) ? raw.dbFile : resolve(cwd, raw.dbFile)) : join(dataDir, 'service.db');

  return {
    ...raw,
    dataDir,
    version: raw.version ?? packageVersion(),
    gitSha: (raw.gitSha ?? readGitSha(cwd) ?? UNKNOWN_SHA).slice(0, 12).padEnd(12, '0'),
    databaseType: raw.dbUrl ? 'postgres' : 'sqlite',
    sqlitePath,
    isProduction,
    isHosted: raw.mode === 'hosted',
    explicitlySet,
  };
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string };
    if (pkg.version) return pkg.version;
  } catch {
    // fall through: running from an unusual layout
  }
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Reads the commit of the checkout once, at start-up, from the .git folder
 * (no git process, nothing per request). Returns undefined outside a checkout.
 */
function readGitSha(cwd: string): string | undefined {
  try {
    const gitDir = gitDirOf(cwd);
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = head.match(/^ref: (.+)$/)?.[1];
    if (!ref) return undefined;
    // A linked worktree keeps its HEAD apart and shares the refs of the main checkout (`commondir`).
    const refsDir = existsSync(join(gitDir, 'commondir')) ? resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim()) : gitDir;
    try {
      return readFileSync(join(refsDir, ref), 'utf8').trim();
    } catch {
      const packed = readFileSync(join(refsDir, 'packed-refs'), 'utf8');
      return packed
        .split('\n')
        .find((line) => line.endsWith(` ${ref}`))
        ?.split(' ')[0];
    }
  } catch {
    return undefined;
  }
}

/** `.git` of a checkout: a folder, or (a linked worktree) a file that names the folder. */
function gitDirOf(cwd: string): string {
  const dotGit = join(cwd, '.git');
  if (!statSync(dotGit).isFile()) return dotGit;
  const target = readFileSync(dotGit, 'utf8')
    .match(/^gitdir: (.+)$/m)?.[1]
    ?.trim();
  if (!target) throw new Error('not a git checkout');
  return resolve(cwd, target);
}

/** The configuration that GET /config may show: nothing sensitive, only presence flags. */
export function publicConfig(config: AppConfig) {
  return {
    version: config.version,
    git_sha: config.gitSha,
    /** The Node.js release this process runs on (Baton supports Node 24). */
    node_version: process.version,
    mode: config.mode,
    database: config.databaseType,
    base_url: config.baseUrl,
    host: config.host,
    port: config.port,
    after_login_url: config.afterLoginUrl,
    auto_summary_interval: config.autoSummaryIntervalS,
    human_id: config.isHosted ? null : (config.humanId ?? null),
    cache_configured: Boolean(config.cacheUrl),
    email_configured: Boolean(config.emailApiKey),
    billing_configured: Boolean(config.billingSecretKey),
    site_password_enabled: Boolean(config.sitePassword),
    body_limit_bytes: config.bodyLimitBytes,
    mcp_rate_limit_per_minute: config.isHosted ? config.mcpRateLimit : null,
  };
}
