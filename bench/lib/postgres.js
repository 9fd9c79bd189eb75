'use strict';
/** A Postgres database with a unique name, created for one benchmark run and dropped after it. */
const { randomBytes } = require('node:crypto');
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

module.exports = { ADMIN_URL, createDatabase };
