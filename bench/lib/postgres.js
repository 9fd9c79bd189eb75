'use strict';
/** A Postgres database with a unique name, created for one benchmark run and dropped after it. */
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const { Client } = require('pg');

const ADMIN_URL = process.env.BENCH_PG_URL ?? process.env.BATON_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin(work) {
  const client = new Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function createDatabase(prefix = 'baton_bench') {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    /** Drops the database and the per-tenant roles Baton created for it. */
    async drop() {
      let roles = [];
      const client = new Client({ connectionString: url.toString() });
      try {
        await client.connect();
        const { rows } = await client.query("SELECT role_name FROM control.tenants WHERE to_regclass('control.tenants') IS NOT NULL");
        roles = rows.map((r) => r.role_name).filter(Boolean);
      } catch {
        // no control plane in this database
      } finally {
        await client.end().catch(() => undefined);
      }
      await admin(async (c) => {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        for (const role of roles) await c.query(`DROP ROLE IF EXISTS "${role}"`);
      });
    },
  };
}

/**
 * Sends one read the way TenantDb.read sends it (`read`: the tenant scope, statement text and
 * values captured from Baton), through Baton's own pipelined read lanes on a pool of `poolSize`
 * connections, from `connections` concurrent callers, for `warmup` then `duration` seconds;
 * returns the reads per second of the measured part and their p50/p99 in ms.
 */
async function replay({ root, url, read, connections, poolSize, duration, warmup }) {
  const { Pool } = require(path.join(root, 'node_modules', 'pg'));
  const { ReadLanes } = require(path.join(root, 'dist', 'libs', 'tenancy', 'read-lanes'));
  const pool = new Pool({ connectionString: url, max: poolSize });
  const lanes = new ReadLanes(pool, Math.max(1, Math.floor(poolSize / 2)));
  const latencies = [];
  let measuring = false;
  const start = Date.now();
  const measureFrom = start + warmup * 1000;
  const end = measureFrom + duration * 1000;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < end) {
          const t = process.hrtime.bigint();
          const result = await lanes.read(read.scope, read.text, read.values);
          if (result.rows.length !== 1) throw new Error(`the replayed read answered ${result.rows.length} rows`);
          measuring ||= Date.now() >= measureFrom;
          if (measuring && Date.now() < end) latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
      }),
    );
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 10)); // lanes go back to the pool
    await pool.end();
  }
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] * 100) / 100;
  return { rps: Math.round(latencies.length / duration), p50_ms: at(0.5), p99_ms: at(0.99) };
}

module.exports = { ADMIN_URL, createDatabase, replay };
