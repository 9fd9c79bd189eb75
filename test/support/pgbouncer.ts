import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Socket } from 'node:net';
import { freePort } from './processes';
import { PG_ADMIN_URL } from './services';
import { describeUnless } from './suites';
import { sleep } from './wait';

/** Debian's pgbouncer package puts the binary here; BATON_PGBOUNCER overrides it. */
const BINARY = process.env.BATON_PGBOUNCER ?? '/usr/sbin/pgbouncer';

/** Why PgBouncer cannot run here, or undefined when it can. */
export function pgbouncerProblem(): string | undefined {
  if (!existsSync(BINARY)) return `no ${BINARY} (apt-get install -y --no-install-recommends pgbouncer, or set BATON_PGBOUNCER)`;
  return undefined;
}

/** describe() for suites that run their own PgBouncer: skipped with the reason when it is missing, failing under CI=true. */
export const describePgbouncer = (name: string, fn: () => void) => describeUnless(process.env.CI === 'true' ? undefined : pgbouncerProblem())(name, fn);

/** The version the binary reports ("1.18.0"). */
export function pgbouncerVersion(): string {
  const out = spawnSync(BINARY, ['--version'], { encoding: 'utf8' }).stdout ?? '';
  return /PgBouncer (\S+)/.exec(out)?.[1] ?? 'unknown';
}

/** PgBouncer refuses to run as root: then its folder belongs to, and it runs as, the `postgres` OS user. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const passwd = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('postgres:'));
  if (!passwd) throw new Error('running as root, and there is no postgres OS user to run PgBouncer as');
  const [, , uid, gid] = passwd.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export interface PgbouncerOptions {
  /** Server connections per database and user: small, so that clients really share them. Default 4. */
  poolSize?: number;
}

/**
 * A PgBouncer of the suite's own in transaction mode (`pool_mode = transaction`) on a free port of
 * 127.0.0.1, in front of the shared Postgres: every database there is reachable through it
 * (`* = host=127.0.0.1 port=5432`), as the same user, with trust auth (as the shared cluster has).
 * After each transaction a server connection goes back to PgBouncer's pool for any client.
 */
export class Pgbouncer {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly child: ChildProcess,
    private readonly log: () => string,
  ) {}

  static async start(options: PgbouncerOptions = {}): Promise<Pgbouncer> {
    const problem = pgbouncerProblem();
    if (problem) throw new Error(`cannot start PgBouncer: ${problem}`);
    const { uid, gid } = runAs();
    const dir = mkdtempSync(join(tmpdir(), 'baton-pgbouncer-'));
    const port = await freePort();
    const target = new URL(PG_ADMIN_URL);
    const user = decodeURIComponent(target.username || 'postgres');
    writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
    writeFileSync(
      join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${target.hostname} port=${target.port || 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(dir, 'users.txt')}`,
        'pool_mode = transaction',
        `default_pool_size = ${options.poolSize ?? 4}`,
        'max_client_conn = 500',
        // pg sends it at connect; PgBouncer refuses parameters it does not know unless told to ignore them.
        'ignore_startup_parameters = extra_float_digits',
        `pidfile = ${join(dir, 'pgbouncer.pid')}`,
        'log_connections = 0',
        'log_disconnections = 0',
        '',
      ].join('\n'),
    );
    if (uid !== undefined && gid !== undefined) for (const file of ['', 'users.txt', 'pgbouncer.ini']) chownSync(join(dir, file), uid, gid);
    // In the foreground (no -d), so that the child is PgBouncer itself: stop() signals it by its own id.
    const child = spawn(BINARY, [join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'], uid, gid });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    const bouncer = new Pgbouncer(dir, port, child, () => out);
    try {
      await bouncer.waitListening();
    } catch (error) {
      await bouncer.stop();
      throw error;
    }
    return bouncer;
  }

  /** `url` (a database on the shared Postgres) with its host and port replaced by this PgBouncer's. */
  through(url: string): string {
    const pooled = new URL(url);
    pooled.hostname = '127.0.0.1';
    pooled.port = String(this.port);
    return pooled.toString();
  }

  /** What PgBouncer wrote so far (its log goes to stderr). */
  output(): string {
    return this.log();
  }

  private async waitListening(): Promise<void> {
    const until = Date.now() + 10_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`pgbouncer exited with code ${this.child.exitCode}:\n${this.log()}`);
      if (await accepts(this.port)) return;
      if (Date.now() > until) throw new Error(`pgbouncer did not listen on 127.0.0.1:${this.port} within 10 s:\n${this.log()}`);
      await sleep(50);
    }
  }

  /** Stops PgBouncer (SIGINT: it closes its connections at once) and removes its folder. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGINT');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
      clearTimeout(timer);
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}
