'use strict';
/**
 * A Postgres cluster of the benchmark's own, as test/support/private-postgres.ts starts one for the
 * suites (Debian's initdb and pg_ctl, a temporary folder, a free port on 127.0.0.1, trust auth,
 * superuser `postgres`; as root it runs as the `postgres` OS user), for a benchmark whose figures
 * are the whole server's (catalog size, backend memory) and must not count other databases.
 * Unlike the suites' cluster it keeps Postgres's own defaults (fsync on, max_connections 100,
 * shared_buffers 128MB) unless `settings` names others.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('./cold-start');

const POSTGRES_LIBS = '/usr/lib/postgresql';

/** The newest Debian Postgres bin folder holding initdb and pg_ctl, if any. */
function binDir() {
  if (!fs.existsSync(POSTGRES_LIBS)) return undefined;
  const versions = fs
    .readdirSync(POSTGRES_LIBS)
    .filter((v) => ['initdb', 'pg_ctl', 'pg_dump'].every((b) => fs.existsSync(path.join(POSTGRES_LIBS, v, 'bin', b))))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(POSTGRES_LIBS, versions[0], 'bin') : undefined;
}

/** Postgres refuses to run as root: then the cluster belongs to, and runs as, the `postgres` OS user. */
function runAs() {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const passwd = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('postgres:'));
  if (!passwd) throw new Error('running as root, and there is no postgres OS user to run a private cluster as');
  const [, , uid, gid] = passwd.split(':');
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => fs.existsSync(p)) ?? 'runuser';
  return { prefix: [runuser, '-u', 'postgres', '--'], uid: Number(uid), gid: Number(gid) };
}

/** Runs a command; resolves with its output, rejects with it when the exit status is not 0. */
function exec(command) {
  const [cmd, ...args] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command.join(' ')} exited with ${code}:\n${out}`))));
  });
}

/**
 * Starts a fresh cluster; `settings` are server settings passed as `-c name=value`. Returns
 * `{ bin, port, url(database), version, destroy() }`; destroy stops it and removes its folder,
 * and is safe to call twice.
 */
async function startPrivatePostgres(settings = {}) {
  const bin = binDir();
  if (!bin) throw new Error(`cannot start a private Postgres cluster: no initdb, pg_ctl and pg_dump under ${POSTGRES_LIBS}/*/bin (Debian's postgresql package)`);
  const { prefix, uid, gid } = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-bench-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  let started = false;
  const destroy = async () => {
    if (started) {
      started = false;
      await exec([...prefix, path.join(bin, 'pg_ctl'), 'stop', '-D', data, '-m', 'immediate', '-w', '-t', '60']).catch(() => undefined);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (uid !== undefined) fs.chownSync(dir, uid, gid);
    await exec([...prefix, path.join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const options = { port, listen_addresses: '127.0.0.1', unix_socket_directories: dir, ...settings };
    const flags = Object.entries(options)
      .map(([k, v]) => `-c ${k}=${v}`)
      .join(' ');
    await exec([...prefix, path.join(bin, 'pg_ctl'), 'start', '-D', data, '-w', '-t', '60', '-l', path.join(dir, 'postgres.log'), '-o', flags]);
    started = true;
  } catch (error) {
    await destroy();
    throw error;
  }
  return {
    bin,
    port,
    version: path.basename(path.dirname(bin)),
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    destroy,
  };
}

module.exports = { startPrivatePostgres };
