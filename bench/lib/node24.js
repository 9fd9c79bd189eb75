'use strict';
/**
 * Running a benchmark on Node 24 when the machine's Node is older.
 *
 * Node 24 comes from .ci/install-node24 (the npm registry's Node package, in .ci/node24).
 * better-sqlite3 is a native addon built for the Node that installed it, so the checkout's
 * node_modules cannot be loaded by Node 24. So:
 *
 * - .ci/node24/deps/<key>/node_modules is a copy of the checkout's node_modules with
 *   better-sqlite3 rebuilt offline against the headers in .ci/node24/nodedir (npm rebuild with
 *   Node 24 first on PATH and npm_config_nodedir set; .ci/install-node24 explains why those
 *   headers are 24.18.1). <key> follows the checkout's installed tree, the Node 24 version and
 *   the headers' version, so it is made again only after an npm install or a Node update. The
 *   compiled addon is kept in .ci/node24/cache/ and reused while better-sqlite3's version and
 *   the headers stay the same.
 * - every run copies the checkout's files (not node_modules, dist, data, coverage) into a
 *   fresh temporary directory, links its node_modules to that copy, builds dist there with
 *   Node 24 and runs the benchmark from it; the directory is removed afterwards. Several
 *   benchmarks can run at once.
 *
 * The checkout itself is never written to.
 */
const { spawn, spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const NODE24_DIR = path.join(ROOT, '.ci', 'node24');
const NODE24_BIN = path.join(NODE24_DIR, 'bin', 'node');
const DEPS_DIR = path.join(NODE24_DIR, 'deps');
const CACHE_DIR = path.join(NODE24_DIR, 'cache');
/** Top-level entries of the checkout that are not copied into a run's tree. */
const SKIP = new Set(['node_modules', 'dist', 'data', 'coverage']);
/** A dependency copy unused for this long is removed when another one is made. */
const STALE_MS = 6 * 3600 * 1000;

function node24Available() {
  if (!fs.existsSync(NODE24_BIN)) return false;
  const out = spawnSync(NODE24_BIN, ['--version'], { encoding: 'utf8' });
  return out.status === 0 && out.stdout.startsWith('v24.');
}

function log(line) {
  process.stderr.write(`[node24] ${line}\n`);
}

function nodedir() {
  return fs.realpathSync(path.join(NODE24_DIR, 'nodedir'));
}

/** The version of the headers native addons are built against, e.g. "24.18.1". */
function headersVersion() {
  const h = fs.readFileSync(path.join(nodedir(), 'include', 'node', 'node_version.h'), 'utf8');
  return ['MAJOR', 'MINOR', 'PATCH'].map((p) => h.match(new RegExp(`#define NODE_${p}_VERSION (\\d+)`))[1]).join('.');
}

function node24Env() {
  return {
    ...process.env,
    PATH: `${path.dirname(NODE24_BIN)}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: nodedir(),
    JOBS: process.env.JOBS ?? 'max',
  };
}

function run(cwd, cmd, args) {
  const started = Date.now();
  // npm's output goes to stderr: the benchmark's stdout carries only its results.
  const out = spawnSync(cmd, args, { cwd, env: node24Env(), stdio: ['ignore', 2, 2] });
  if (out.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (exit ${out.status ?? out.signal})`);
  return Date.now() - started;
}

/** The Node 24 copy of the checkout's node_modules (made when missing); returns its path. */
function prepareDeps(version) {
  const installed = path.join(ROOT, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(installed)) throw new Error(`${path.join(ROOT, 'node_modules')} is not installed: run \`npm ci\` first`);
  const headers = headersVersion();
  const key = createHash('sha256').update(fs.readFileSync(installed)).update(`${version} ${headers}`).digest('hex').slice(0, 16);
  const target = path.join(DEPS_DIR, key);
  if (fs.existsSync(path.join(target, 'node_modules'))) {
    fs.utimesSync(target, new Date(), new Date());
    return path.join(target, 'node_modules');
  }

  const work = `${target}.tmp-${process.pid}`;
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  let started = Date.now();
  log(`copying node_modules for Node ${version} into ${target}`);
  fs.cpSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(ROOT, f), path.join(work, f));
  log(`copied in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const addonDir = path.join(work, 'node_modules', 'better-sqlite3');
  const addonVersion = JSON.parse(fs.readFileSync(path.join(addonDir, 'package.json'), 'utf8')).version;
  // The headers fix the ABI the addon is built for.
  const cached = path.join(CACHE_DIR, `better-sqlite3-${addonVersion}-node-headers-${headers}.node`);
  const built = path.join(addonDir, 'build', 'Release', 'better_sqlite3.node');
  fs.rmSync(path.join(addonDir, 'build'), { recursive: true, force: true });
  if (fs.existsSync(cached)) {
    fs.mkdirSync(path.dirname(built), { recursive: true });
    fs.copyFileSync(cached, built);
    log(`better-sqlite3 ${addonVersion} built against Node ${headers} headers taken from ${cached}`);
  } else {
    log(`compiling better-sqlite3 ${addonVersion} for Node ${version} against Node ${headers} headers (about 2 minutes on 2 cores)`);
    started = Date.now();
    run(work, 'npm', ['rebuild', 'better-sqlite3']);
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    fs.copyFileSync(built, `${cached}.tmp-${process.pid}`);
    fs.renameSync(`${cached}.tmp-${process.pid}`, cached);
    log(`compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const check = spawnSync(NODE24_BIN, ['-e', 'new (require("better-sqlite3"))(":memory:").prepare("select 1").get()'], {
    cwd: work,
    stdio: ['ignore', 2, 2],
  });
  if (check.status !== 0) throw new Error(`better-sqlite3 does not load on Node ${version} in ${work}`);

  try {
    fs.renameSync(work, target);
  } catch (error) {
    // Another benchmark made the same copy first: use that one.
    if (!fs.existsSync(path.join(target, 'node_modules'))) throw error;
    fs.rmSync(work, { recursive: true, force: true });
  }
  for (const entry of fs.readdirSync(DEPS_DIR)) {
    const p = path.join(DEPS_DIR, entry);
    if (p !== target && Date.now() - fs.statSync(p).mtimeMs > STALE_MS) fs.rmSync(p, { recursive: true, force: true });
  }
  return path.join(target, 'node_modules');
}

/** A fresh copy of the checkout, on Node 24 dependencies, with dist built; returns its path. */
function prepareTree() {
  const version = spawnSync(NODE24_BIN, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const deps = prepareDeps(version);
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-bench-node24-'));
  try {
    for (const entry of fs.readdirSync(ROOT)) {
      if (SKIP.has(entry)) continue;
      if (entry === '.ci') {
        // .ci holds .ci/node24 (Node itself and the dependency copies): not needed here.
        for (const sub of fs.readdirSync(path.join(ROOT, entry))) {
          if (sub !== 'node24') fs.cpSync(path.join(ROOT, entry, sub), path.join(tree, entry, sub), { recursive: true, verbatimSymlinks: true });
        }
        continue;
      }
      fs.cpSync(path.join(ROOT, entry), path.join(tree, entry), { recursive: true, verbatimSymlinks: true });
    }
    fs.symlinkSync(deps, path.join(tree, 'node_modules'), 'dir');
    const ms = run(tree, 'npm', ['run', 'build']);
    log(`${tree}: sources copied, npm run build on Node ${version} took ${(ms / 1000).toFixed(1)} s`);
    return tree;
  } catch (error) {
    fs.rmSync(tree, { recursive: true, force: true });
    throw error;
  }
}

/** Runs bench/run.js of a prepared tree on Node 24, removes the tree, exits with its status. */
function reexecOnNode24(argv) {
  const tree = prepareTree();
  const child = spawn(NODE24_BIN, [path.join(tree, 'bench', 'run.js'), ...argv], {
    cwd: tree,
    stdio: 'inherit',
    env: { ...process.env, BATON_BENCH_CHILD: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    fs.rmSync(tree, { recursive: true, force: true });
    process.exit(code ?? (signal ? 128 : 1));
  });
}

module.exports = { NODE24_BIN, node24Available, prepareTree, reexecOnNode24 };
