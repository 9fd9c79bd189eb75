'use strict';
/** A numeric benchmark setting from the environment: `fallback` when unset, refused below `min`. */
function setting(name, fallback, min = 0) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}`);
  return n;
}

module.exports = { setting };
