import { spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './processes';
import { sleep } from './wait';
import { describeUnless } from './suites';

const POSTGRES_LIBS = '/usr/lib/postgresql';

/** The newest Debian Postgres bin folder holding initdb and pg_ctl, if any. */
function binDir(): string | undefined {
  if (!existsSync(POSTGRES_LIBS)) return undefined;
  const versions = readdirSync(POSTGRES_LIBS)
    .filter((v) => existsSync(join(POSTGRES_LIBS, v, 'bin', 'initdb')) && existsSync(join(POSTGRES_LIBS, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(POSTGRES_LIBS, versions[0], 'bin') : undefined;
}

/** Postgres refuses to run as root: then the cluster belongs to, and runs as, the `postgres` OS user. */
function runAs(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const passwd = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('postgres:'));
  if (!passwd) throw new Error('running as root, and there is no postgres OS user to run a private cluster as');
  const [, , uid, gid] = passwd.split(':');
  // runuser lives in /usr/sbin, which a PATH of only /usr/bin:/bin (a non-login shell) leaves out.
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((path) => existsSync(path)) ?? 'runuser';
  return { prefix: [runuser, '-u', 'postgres', '--'], uid: Number(uid), gid: Number(gid) };
}

/** Why a private cluster cannot run here, or undefined when it can. */
export function privatePostgresProblem(): string | undefined {
  if (!binDir()) return `no initdb and pg_ctl under ${POSTGRES_LIBS}/*/bin (Debian's postgresql package)`;
  try {
    runAs();
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

/**
 * describe() for suites that start their own cluster: skipped with the reason when the binaries
 * are missing, except under CI=true, where the suite runs and fails (as for the shared services).
 */
export const describePrivatePostgres = (name: string, fn: () => void) => describeUnless(process.env.CI === 'true' ? undefined : privatePostgresProblem())(name, fn);

async function run(command: string[]): Promise<string> {
  const [cmd, ...args] = command;
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`${command.join(' ')} exited with ${code}:\n${out}`);
  return out;
}

/** Process ids whose parent is `pid` (read from /proc: no ps needed). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A Postgres cluster of the suite's own (initdb in a temporary folder, a free port on 127.0.0.1,
 * trust auth, superuser `postgres`), which a test may stop, crash or freeze without touching the
 * shared one. Built with the Debian binaries; as root it runs as the `postgres` OS user.
 * fsync is off: a killed postmaster still leaves every committed transaction in the OS's cache,
 * so crash recovery is tested; only a machine crash would lose data, and that is not simulated.
 */
export class PrivatePostgres {
  /** The postmaster and its children, as they were when the cluster was killed: a new one cannot start beside them. */
  private leftovers: number[] = [];

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
    private readonly prefix: string[],
  ) {}

  static async create(): Promise<PrivatePostgres> {
    const problem = privatePostgresProblem();
    if (problem) throw new Error(`cannot start a private Postgres cluster: ${problem}`);
    const { prefix, uid, gid } = runAs();
    const dir = mkdtempSync(join(tmpdir(), 'baton-pg-'));
    const cluster = new PrivatePostgres(dir, await freePort(), binDir() as string, prefix);
    try {
      if (uid !== undefined && gid !== undefined) chownSync(dir, uid, gid);
      await run([...prefix, join(cluster.bin, 'initdb'), '-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
      await cluster.start();
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** The superuser's URL of database `database` (default `postgres`). */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** The postmaster's process id (first line of postmaster.pid), or undefined when it is not running. */
  postmasterPid(): number | undefined {
    try {
      const pid = Number(readFileSync(join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return pid > 0 && alive(pid) ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** Starts the cluster on its port and waits until it accepts connections (after crash recovery, if any). */
  async start(): Promise<void> {
    // Backends of a killed postmaster leave when they notice; the new one refuses to start while they hold its shared memory.
    const until = Date.now() + 10_000;
    while (this.leftovers.some(alive) && Date.now() < until) await sleep(50);
    for (const pid of this.leftovers.filter(alive)) process.kill(pid, 'SIGKILL');
    this.leftovers = [];
    const options = `-c port=${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.dir} -c fsync=off -c max_connections=60 -c shared_buffers=32MB`;
    await run([...this.prefix, join(this.bin, 'pg_ctl'), 'start', '-D', this.dataDir, '-w', '-t', '60', '-l', join(this.dir, 'postgres.log'), '-o', options]);
  }

  /** `pg_ctl stop -m fast` (sessions are ended, a clean shutdown) or `-m immediate` (no shutdown checkpoint: recovery at the next start). */
  async stop(mode: 'fast' | 'immediate'): Promise<void> {
    await run([...this.prefix, join(this.bin, 'pg_ctl'), 'stop', '-D', this.dataDir, '-m', mode, '-w', '-t', '60']);
  }

  /** SIGKILL to the postmaster alone, as a crash would do; its backends notice and leave. */
  kill(): void {
    const pid = this.postmasterPid();
    if (!pid) throw new Error('the private cluster is not running');
    this.leftovers = [pid, ...childrenOf(pid)];
    process.kill(pid, 'SIGKILL');
  }

  /** SIGSTOP to the postmaster and every process it started: the server accepts TCP connections and answers nothing. */
  freeze(): void {
    const pid = this.postmasterPid();
    if (!pid) throw new Error('the private cluster is not running');
    process.kill(pid, 'SIGSTOP'); // first, so that it forks nothing more while its children are stopped
    for (const child of childrenOf(pid)) process.kill(child, 'SIGSTOP');
  }

  /** SIGCONT to every process of the cluster: it goes on where it stopped. */
  thaw(): void {
    const pid = this.postmasterPid();
    if (!pid) return;
    for (const child of childrenOf(pid)) process.kill(child, 'SIGCONT');
    process.kill(pid, 'SIGCONT');
  }

  /** Runs SQL as the superuser on `database` (default `postgres`). */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = [], database = 'postgres'): Promise<T[]> {
    const client = new Client({ connectionString: this.url(database), connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Stops the cluster however it is (frozen, crashed, running) and removes its folder. Safe to call twice. */
  async destroy(): Promise<void> {
    const pid = this.postmasterPid();
    if (pid) {
      this.thaw();
      await this.stop('immediate').catch(() => undefined);
      if (alive(pid)) this.leftovers.push(pid, ...childrenOf(pid));
    }
    for (const leftover of this.leftovers.filter(alive)) process.kill(leftover, 'SIGKILL');
    this.leftovers = [];
    rmSync(this.dir, { recursive: true, force: true });
  }
}
