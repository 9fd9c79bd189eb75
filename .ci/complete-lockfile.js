#!/usr/bin/env node
'use strict';
/**
 * Completes package-lock.json with the optional platform packages that a locked package names
 * (for example @swc/core-darwin-arm64 for @swc/core) but the lockfile does not record.
 *
 *   node .ci/complete-lockfile.js [path/to/package-lock.json]
 *
 * npm ci refuses a lockfile without them ("Missing: <name>@ from lock file"), and the npm
 * registry reachable here does not carry every platform build, so `npm install` alone cannot
 * add them. Each missing entry is added with its version, os, cpu and libc (read from the
 * package name, as these packages are named <platform>-<arch>[-<abi>]) and the license and
 * engines of a recorded sibling; no existing entry changes. npm skips the entries on other
 * platforms and fetches them by name and version where they apply. Re-running changes nothing.
 */
const fs = require('node:fs');
const path = require('node:path');

const file = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'package-lock.json'));
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pkgs = lock.packages;

function platformOf(name) {
  const suffix = name
    .split('/')
    .pop()
    .replace(/^(core|resolver-binding)-/, '');
  const [os, cpu, abi] = suffix.split('-');
  const p = { os: [os], cpu: [cpu] };
  if (os === 'linux' && abi) p.libc = [abi.startsWith('musl') ? 'musl' : 'glibc'];
  return p;
}

const added = [];
for (const [key, entry] of Object.entries(pkgs)) {
  const optional = entry.optionalDependencies ?? {};
  const sibling = Object.keys(optional)
    .map((n) => pkgs[`node_modules/${n}`])
    .find(Boolean);
  for (const [name, version] of Object.entries(optional)) {
    if (pkgs[`node_modules/${name}`] || (key && pkgs[`${key}/node_modules/${name}`])) continue;
    if (!sibling) throw new Error(`${name}: no recorded sibling in ${key} to take the entry's shape from`);
    const p = platformOf(name);
    const e = { version, cpu: p.cpu };
    if (sibling.dev) e.dev = true;
    if (p.libc) e.libc = p.libc;
    if (sibling.license) e.license = sibling.license;
    e.optional = true;
    e.os = p.os;
    if (sibling.engines) e.engines = sibling.engines;
    pkgs[`node_modules/${name}`] = e;
    added.push(`node_modules/${name}`);
  }
}

// Insert the new entries in npm's order without moving any existing entry.
const cmp = (a, b) => a.localeCompare(b, 'en');
const fresh = new Set(added);
const pending = [...added].sort(cmp);
const ordered = {};
for (const k of Object.keys(pkgs)) {
  if (fresh.has(k)) continue;
  while (k !== '' && pending.length && cmp(pending[0], k) < 0) {
    const p = pending.shift();
    ordered[p] = pkgs[p];
  }
  ordered[k] = pkgs[k];
}
for (const p of pending) ordered[p] = pkgs[p];
lock.packages = ordered;

if (added.length) fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(added.length ? `added ${added.length} entries to ${file}:\n  ${added.map((k) => k.slice(13)).join('\n  ')}` : `${file} is complete`);
