import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, Socket } from 'node:net';
import { join } from 'node:path';
import { Http } from './support/http';
import { TestDatabase } from './support/pg-database';
import { freePort, REPO_ROOT, startServerProcess } from './support/processes';
import { describePostgres } from './support/suites';
import { sleep, waitUntil } from './support/wait';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('starting Baton from the command line', () => {
  test('npm start serves a healthy /health on SQLite within 15 s', async () => {
    const started = Date.now();
    const server = await startServerProcess({}, { command: [npm, 'start'], timeoutMs: 15_000 });
    try {
      expect(Date.now() - started).toBeLessThan(15_000);
      const health = await new Http(server.url).get('/health');
      expect(health.body).toMatchObject({ status: 'ok', service: 'baton' });
      const created = await new Http(server.url).post('/projects', { name: 'from npm start' });
      expect(created.status).toBe(201);
    } finally {
      await server.stop();
    }
  }, 30_000);

  test("the production entry point leaves its compiled modules in Node's compile cache, and starts again from them", async () => {
    const cache = mkdtempSync(join(tmpdir(), 'baton-compile-cache-'));
    const filesIn = (dir: string): string[] =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name);
    try {
      const first = await startServerProcess({ NODE_COMPILE_CACHE: cache });
      try {
        // Written while it runs (not only at exit), so a server that is killed leaves it too.
        await waitUntil(() => filesIn(cache).length > 0, 10_000);
      } finally {
        await first.stop();
      }
      const second = await startServerProcess({ NODE_COMPILE_CACHE: cache });
      try {
        expect((await new Http(second.url).post('/projects', { name: 'from the cache' })).status).toBe(201);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 45_000);

  test('connections that arrive while Baton cannot accept them wait in its backlog, not for TCP to send them again', async () => {
    const server = await startServerProcess({});
    const pid = server.child.pid as number;
    const count = 1500; // more than Node's default backlog (511), less than Linux's default cap (4096)
    const sockets: Socket[] = [];
    try {
      // Stopped, Baton accepts nothing, as when its event loop is busy with the first of thousands of agents.
      process.kill(pid, 'SIGSTOP');
      let connected = 0;
      for (let i = 0; i < count; i++) {
        const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
        socket.on('connect', () => connected++);
        socket.on('error', () => undefined);
        sockets.push(socket);
      }
      // The kernel completes a handshake while the backlog has room; past it a SYN is dropped and sent again a second later.
      await sleep(800);
      // Handshakes the kernel finished meanwhile are told in the next poll for I/O, before an immediate.
      await new Promise((resolve) => setImmediate(resolve));
      expect(connected).toBe(count);
      process.kill(pid, 'SIGCONT');
      const answers = await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<string>((resolve) => {
              let text = '';
              socket.on('data', (chunk) => (text += chunk));
              socket.on('close', () => resolve(text));
              socket.end('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
            }),
        ),
      );
      expect(answers.filter((text) => text.startsWith('HTTP/1.1 200')).length).toBe(count);
    } finally {
      process.kill(pid, 'SIGCONT');
      for (const socket of sockets) socket.destroy();
      await server.stop();
    }
  }, 45_000);

  test('a bad variable stops the boot with a message naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-badcfg-'));
    try {
      const env = { PATH: process.env.PATH ?? '', SERVICE_DATA_DIR: dir };
      const badPort = spawnSync(process.execPath, ['dist/src/main.js'], { cwd: REPO_ROOT, env: { ...env, SERVICE_PORT: 'seventy' }, encoding: 'utf8' });
      expect(badPort.status).toBe(78);
      expect(badPort.stderr).toMatch(/SERVICE_PORT must be an integer/);

      const hostedNoDb = spawnSync(process.execPath, ['dist/src/main.js'], { cwd: REPO_ROOT, env: { ...env, SERVICE_MODE: 'hosted' }, encoding: 'utf8' });
      expect(hostedNoDb.status).toBe(78);
      expect(hostedNoDb.stderr).toMatch(/SERVICE_DB_URL is required when SERVICE_MODE is hosted/);

      const production = spawnSync(process.execPath, ['dist/src/main.js'], { cwd: REPO_ROOT, env: { ...env, NODE_ENV: 'production' }, encoding: 'utf8' });
      expect(production.status).toBe(78);
      expect(production.stderr).toMatch(/SESSION_SECRET is required/);
      expect(production.stderr).toMatch(/APP_URL is required/);

      const secretUrl = 'mysql://admin:pa55word@db.internal/x';
      const badDb = spawnSync(process.execPath, ['dist/src/main.js'], { cwd: REPO_ROOT, env: { ...env, SERVICE_DB_URL: secretUrl }, encoding: 'utf8' });
      expect(badDb.status).toBe(78);
      expect(badDb.stderr).toMatch(/SERVICE_DB_URL/);
      expect(badDb.stderr).not.toContain('pa55word');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describePostgres('command-line tenant provisioning', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await TestDatabase.create();
  });
  afterAll(async () => {
    await db?.drop();
  });

  test('npm run migrate, then tenant:create prints one JSON line whose token works, and migrate reports all tenants current', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SERVICE_MODE: 'hosted', SERVICE_DB_URL: db.url, SERVICE_PORT: String(await freePort()) };
    const migrate = spawnSync(npm, ['run', '-s', 'migrate'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    expect(migrate.status).toBe(0);
    expect(JSON.parse(migrate.stdout.trim())).toMatchObject({ migrated: true, database: 'postgres', mode: 'hosted', tenants_behind: 0, shared: { target: 'control' }, failed: [] });

    const create = spawnSync(npm, ['run', '-s', 'tenant:create', '--', '--name', 'Acme Robotics'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    expect(create.status).toBe(0);
    const lines = create.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]);
    expect(result).toEqual({ tenant_id: expect.stringMatching(/^[0-9a-f-]{36}$/), token: expect.stringMatching(/^sk_service_[A-Za-z0-9]{42}$/) });
    expect(create.stderr).not.toContain(result.token);

    const [tenant] = await db.query<{ name: string }>('SELECT name FROM control.tenants WHERE id = $1', [result.tenant_id]);
    expect(tenant.name).toBe('Acme Robotics');
    const again = spawnSync(npm, ['run', '-s', 'migrate'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout.trim())).toMatchObject({ migrated: true, tenants_behind: 0, shared: { applied: [] }, tenants: { total: 1, behind: 0, failed: 0 } });

    const server = await startServerProcess({ SERVICE_MODE: 'hosted', SERVICE_DB_URL: db.url, APP_URL: 'http://127.0.0.1' });
    try {
      const http = new Http(server.url, result.token);
      expect((await http.post('/projects', { name: 'first' })).status).toBe(201);
      expect((await http.get('/projects')).body).toHaveLength(1);
    } finally {
      await server.stop();
    }
    expect(server.output()).not.toContain(result.token);

    const usage = spawnSync(npm, ['run', '-s', 'tenant:create'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/usage: npm run tenant:create -- --name <name>/);
  }, 60_000);

  test('a database that does not exist, or a user the database refuses, stops the boot at once, naming SERVICE_DB_URL and the reason, never the password', () => {
    const missing = new URL(db.url);
    missing.pathname = `/${db.name}_missing`;
    missing.password = 'pa55word';
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SERVICE_MODE: 'hosted', SERVICE_DB_URL: missing.toString(), SERVICE_PORT: '0' };
    const started = Date.now();
    const run = spawnSync(process.execPath, ['dist/src/main.js'], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(78);
    expect(run.stderr).toMatch(/SERVICE_DB_URL \(host [^,]+, port \d+\): the database does not exist \(SQLSTATE 3D000\)/);
    expect(run.stderr + run.stdout).not.toContain('pa55word');
    expect(run.stdout).not.toMatch(/waiting for the database/); // refused at the first attempt, not retried
    expect(Date.now() - started).toBeLessThan(20_000);

    const unknownUser = new URL(db.url);
    unknownUser.username = 'no_such_baton_role';
    const user = spawnSync(process.execPath, ['dist/src/main.js'], { cwd: REPO_ROOT, env: { ...env, SERVICE_DB_URL: unknownUser.toString() }, encoding: 'utf8', timeout: 30_000 });
    expect(user.status).toBe(78);
    expect(user.stderr).toMatch(/SERVICE_DB_URL \(host [^,]+, port \d+\): the user may not connect \(SQLSTATE 28000\)/);
  }, 40_000);
});
