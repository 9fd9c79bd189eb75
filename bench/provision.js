'use strict';
/**
 * provision: how long creating a hosted workspace takes, with tenants made in advance
 * (SERVICE_TENANT_SPARES) and without.
 *
 *   npm run build && npm run bench -- provision
 *
 * Baton runs hosted in this process twice, each on a fresh database of the shared Postgres
 * (BENCH_PG_URL): once with no spares, where `TenantProvisioning.provision` makes the schema, role
 * and every tenant migration while its caller waits, and once with BENCH_SPARES spares, where it
 * hands one out. With spares, each timed creation starts with a full reserve (the background refill
 * of the one before is waited for, untimed), as sign-ups spaced apart find it; the sign-up path (a
 * new person's first sign-in, `Accounts.signInAs`: account, membership and workspace) is timed the
 * same way. The reference measured in the same run is one bare `INSERT` round trip into
 * control.tenants from a plain pg client (the least a creation writes), so the figure is also
 * given in those round trips.
 *
 * Settings (environment): BENCH_RUNS (creations timed per figure, 10), BENCH_SPARES (2), ceilings
 * BENCH_PROVISION_MS (100: the goal for a workspace with spares, a person waits on it) and
 * BENCH_PROVISION_TRIPS (20: the same in bare INSERT round trips), BENCH_STRICT=1 (exit 3 when a
 * figure is missed).
 */
const { randomBytes, randomUUID } = require('node:crypto');
const path = require('node:path');
const { figureRow, median, printFigures } = require('./lib/figures');
const { createDatabase } = require('./lib/postgres');
const { startBaton } = require('./lib/servers');
const { setting } = require('./lib/settings');

const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const round = (x) => Math.round(x * 10) / 10;

async function run({ root }) {
  const opts = { runs: setting('BENCH_RUNS', 10, 1), spares: setting('BENCH_SPARES', 2, 1) };
  const ceilings = { provision_ms: setting('BENCH_PROVISION_MS', 100, 1), trips: setting('BENCH_PROVISION_TRIPS', 20, 1) };
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const { Client } = require(path.join(root, 'node_modules', 'pg'));
  const { TenantProvisioning } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'tenant-provisioning.service'));
  const { TenantSpares } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'tenant-spares.service'));
  const { Accounts } = require(path.join(root, 'dist', 'src', 'modules', 'accounts', 'accounts.service'));
  console.log(`provision: creating a hosted workspace ${opts.runs} times without spares and with SERVICE_TENANT_SPARES=${opts.spares}`);

  const closers = [];
  try {
    const envOf = (db, spares) => ({
      NODE_ENV: 'production',
      SESSION_SECRET: randomBytes(24).toString('hex'),
      SERVICE_MODE: 'hosted',
      SERVICE_DB_URL: db.url,
      APP_URL: 'http://127.0.0.1',
      SERVICE_TENANT_SPARES: String(spares),
    });

    // Without spares: every creation makes its tenant.
    const plainDb = await createDatabase('baton_bench_provision');
    closers.push(() => plainDb.drop());
    const plain = await startBaton(root, envOf(plainDb, 0));
    closers.push(() => plain.close());
    const without = [];
    for (let i = 0; i < opts.runs; i++) {
      const start = process.hrtime.bigint();
      await plain.app.get(TenantProvisioning).provision(`without spares ${i}`);
      without.push(ms(start));
    }

    // The reference: one bare INSERT into control.tenants, a round trip from a plain client.
    const pg = new Client({ connectionString: plainDb.url });
    await pg.connect();
    closers.push(() => pg.end());
    const inserts = [];
    for (let i = 0; i < Math.max(50, opts.runs); i++) {
      const id = randomUUID();
      const start = process.hrtime.bigint();
      await pg.query("INSERT INTO control.tenants (id, name, schema_name, status, created_at, updated_at) VALUES ($1, 'bench insert', $2, 'bench', now(), now())", [
        id,
        `bench_${id.replace(/-/g, '')}`,
      ]);
      inserts.push(ms(start));
    }
    await pg.query("DELETE FROM control.tenants WHERE status = 'bench'");

    // With spares: each creation finds a full reserve.
    const sparesDb = await createDatabase('baton_bench_provision');
    closers.push(() => sparesDb.drop());
    const started = process.hrtime.bigint();
    const withSpares = await startBaton(root, envOf(sparesDb, opts.spares));
    closers.push(() => withSpares.close());
    const spares = withSpares.app.get(TenantSpares);
    await spares.settled();
    const fillMs = ms(started);
    const provisioning = withSpares.app.get(TenantProvisioning);
    const accounts = withSpares.app.get(Accounts);
    const spareIds = async () => new Set((await pgOn(sparesDb.url, Client, "SELECT id FROM control.tenants WHERE status = 'spare'")).map((r) => r.id));
    const timed = async (work) => {
      await spares.settled();
      const before = await spareIds();
      const start = process.hrtime.bigint();
      const id = await work();
      const took = ms(start);
      if (!before.has(id)) throw new Error(`workspace ${id} was not a spare handed out: the reserve was not full`);
      return took;
    };
    const withTimes = [];
    for (let i = 0; i < opts.runs; i++) withTimes.push(await timed(async () => (await provisioning.provision(`with spares ${i}`)).tenant_id));
    const signUps = [];
    for (let i = 0; i < opts.runs; i++) {
      const email = `bench-${i}-${randomBytes(3).toString('hex')}@example.test`;
      signUps.push(await timed(async () => (await accounts.signInAs({ provider: 'magic', subject: email, email, emailVerified: true })).tenantId));
    }
    await spares.settled();

    const figures = {
      without_ms: round(median(without)),
      with_ms: round(median(withTimes)),
      sign_up_ms: round(median(signUps)),
      insert_ms: Math.round(median(inserts) * 100) / 100,
      reserve_fill_ms: round(fillMs),
    };
    const trips = Math.round((figures.with_ms / figures.insert_ms) * 10) / 10;
    console.log(`without spares: provision median ${figures.without_ms} ms (runs ${without.map(round).join(', ')})`);
    console.log(`with ${opts.spares} spares: provision median ${figures.with_ms} ms (runs ${withTimes.map(round).join(', ')}); sign-up median ${figures.sign_up_ms} ms`);
    console.log(`start with ${opts.spares} spares until the reserve is full: ${figures.reserve_fill_ms} ms`);
    console.log(
      `reference: one bare INSERT into control.tenants ${figures.insert_ms} ms; provision with a spare = ${trips} of them; ${round(figures.without_ms / figures.with_ms)}x faster than without`,
    );

    const rows = [
      figureRow({ figure: 'provision with a spare', value: figures.with_ms, unit: 'ms', ceiling: ceilings.provision_ms }),
      figureRow({ figure: 'sign-up (first sign-in) with a spare', value: figures.sign_up_ms, unit: 'ms', ceiling: ceilings.provision_ms }),
      figureRow({ figure: 'provision with a spare, in bare INSERT round trips', value: trips, unit: 'trips', ceiling: ceilings.trips }),
      figureRow({ figure: 'provision with a spare vs without (reference)', value: figures.with_ms, unit: 'ms', ceiling: figures.without_ms }),
    ];
    printFigures(rows);
    if (process.env.BENCH_STRICT === '1' && rows.some((r) => !r.met)) process.exitCode = 3;
    console.log(JSON.stringify({ bench: 'provision', runs: opts.runs, spares: opts.spares, ...figures, insert_round_trips: trips, figures: rows }));
  } finally {
    for (const close of closers.reverse()) await close().catch((error) => process.stderr.write(`cleanup: ${error.message}\n`));
  }
}

async function pgOn(url, Client, sql) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

module.exports = { run };
