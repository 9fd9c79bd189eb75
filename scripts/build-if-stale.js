#!/usr/bin/env node
'use strict';
/**
 * `npm start` and `npm install` run this before anything else: it runs the build's steps
 * (`npm run build:steps`) only when what they read has changed since the last build it recorded,
 * so a second `npm start` starts the server at once instead of compiling everything again (about
 * ten seconds). `npm run build` runs it with `--always`: it builds whatever the fingerprint says,
 * and records it, so an `npm start` after it does not build again.
 *
 * What the build reads is fingerprinted by content, not by file times (a checkout, a copy or an
 * editor can set those either way): the path and bytes of every file under the source folders,
 * the package and TypeScript settings, and the lockfile. The fingerprint is taken before the
 * build and kept in dist/ only once the build has succeeded, so an edit made while it runs, or a
 * build that failed or was stopped, means building again next time. A build output that is
 * missing also means building again.
 */
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const STAMP = path.join(ROOT, 'dist', '.build-inputs');

/** Folders whose every file the build reads, and single files it reads. */
const FOLDERS = ['src', 'libs', 'migrations', path.join('apps', 'dashboard', 'src')];
const FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
  path.join('apps', 'dashboard', 'package.json'),
  path.join('apps', 'dashboard', 'index.html'),
  path.join('apps', 'dashboard', 'tsconfig.json'),
  path.join('apps', 'dashboard', 'vite.config.ts'),
];
/** Written by the build from src/ (dist/src/cli/openapi.js): an output, not something it reads. */
const GENERATED = new Set([path.join('apps', 'dashboard', 'src', 'api', 'openapi-types.gen.ts')]);
/** What a finished build leaves: without any of these, it is built again whatever the fingerprint says. */
const OUTPUTS = [path.join('dist', 'src', 'main.js'), path.join('dist', 'openapi.json'), path.join('apps', 'dashboard', 'dist', 'index.html')];

function filesUnder(folder) {
  const absolute = path.join(ROOT, folder);
  if (!fs.existsSync(absolute)) return [];
  return fs
    .readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

function fingerprint() {
  const files = [...FOLDERS.flatMap(filesUnder), ...FILES.filter((file) => fs.existsSync(path.join(ROOT, file)))].filter((file) => !GENERATED.has(file)).sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(ROOT, file));
    hash.update(`${file.split(path.sep).join('/')} ${bytes.length}\n`).update(bytes);
  }
  return hash.digest('hex');
}

function recorded() {
  try {
    return fs.readFileSync(STAMP, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Set for the build's steps: a step that ran this script again would build forever. */
const BUILDING = 'BATON_BUILD_STEPS_RUNNING';

function main() {
  if (process.env[BUILDING]) {
    console.error('baton: the build steps ran scripts/build-if-stale.js again; "build:steps" must not call "build"');
    return 1;
  }
  const current = fingerprint();
  const outputsThere = OUTPUTS.every((file) => fs.existsSync(path.join(ROOT, file)));
  if (!process.argv.includes('--always') && outputsThere && recorded() === current) {
    console.log('baton: the build is up to date with the sources; not building again (npm run build forces it)');
    return 0;
  }
  fs.rmSync(STAMP, { force: true });
  const npm = process.env.npm_execpath;
  const env = { ...process.env, [BUILDING]: '1' };
  // Run by npm (npm start, npm install), npm_execpath is npm's own script, run with this Node; else the npm on PATH.
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build:steps'], { cwd: ROOT, env, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build:steps'], { cwd: ROOT, env, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.error) throw build.error;
  if (build.status !== 0) return build.status ?? 1;
  fs.writeFileSync(STAMP, `${current}\n`);
  return 0;
}

process.exitCode = main();
