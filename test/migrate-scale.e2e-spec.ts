import { DataSource } from 'typeorm';
import { TENANT_MIGRATIONS } from '../migrations/tenant';
import { createBareTenants, migrateEnv, MigrateRun, runMigrate, schemaOf } from './support/migrate-cli';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';

/**
 * 250 tenants in the test run (about two minutes); `BATON_SCALE_TENANTS=1000 npm run test:scale`
 * gives the figure docs/decisions.md states for 1,000 (all migrations on 1,000 empty schemas took
 * about six minutes on a 2-core machine, too long for every CI run).
 */
const TENANTS = Number(process.env.BATON_SCALE_TENANTS ?? 250);
const Latest = TENANT_MIGRATIONS[TENANT_MIGRATIONS.length - 1];
const LATEST = new Latest().name as string;
const PREVIOUS = new TENANT_MIGRATIONS[TENANT_MIGRATIONS.length - 2]().name as string;

/** The run's figures, for docs/decisions.md (no timing is asserted). */
function report(what: string, run: MigrateRun) {
  const t = run.summary.tenants;
  process.stdout.write(
    `migrate at scale: ${what}: ${t.migrated} of ${t.behind} tenants in ${t.seconds} s (${(t.migrated / t.seconds).toFixed(1)}/s), whole command ${run.summary.seconds} s\n`,
  );
}

describePostgres(`npm run migrate over ${TENANTS} hosted tenants, one of them broken`, () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let ids: string[];
  let broken: string;

  const countAt = async (name: string | null) =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM control.tenants WHERE migrated_to IS NOT DISTINCT FROM $1', [name]))[0].n;

  beforeAll(async () => {
    db = await TestDatabase.create();
    env = migrateEnv(db.url);
    expect((await runMigrate(env)).code).toBe(0);
    ids = await createBareTenants(db, TENANTS);
    broken = ids[Math.floor(TENANTS / 2)];
    await db.query(`CREATE TABLE "${schemaOf(broken)}".projects (x int)`);
  }, 300_000);
  afterAll(async () => {
    await db?.drop();
  }, 300_000);

  test(`every tenant migration on ${TENANTS} empty schemas: ${TENANTS - 1} migrated, the broken one named, exit status 1`, async () => {
    const dry = await runMigrate(env, ['--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.summary.tenants).toMatchObject({ total: TENANTS, behind: TENANTS });
    expect(await countAt(null)).toBe(TENANTS);

    const run = await runMigrate(env);
    report(`all ${TENANT_MIGRATIONS.length} tenant migrations`, run);
    expect(run.code).toBe(1);
    expect(run.summary).toMatchObject({ migrated: false, tenants: { total: TENANTS, behind: TENANTS, migrated: TENANTS - 1, failed: 1 } });
    expect(run.summary.failed).toEqual([{ tenant_id: broken, error: expect.stringMatching(/"projects" already exists/) }]);
    expect(run.stderr).toContain(`tenant ${broken} failed:`);
    expect(run.stderr).toMatch(new RegExp(`^${TENANTS}/${TENANTS} tenants \\(100%\\)`, 'm'));
    expect(await countAt(LATEST)).toBe(TENANTS - 1);
    expect(await countAt(null)).toBe(1);
  }, 900_000);

  test(`an upgrade: one pending migration on ${TENANTS - 1} tenants (and the broken one still failing)`, async () => {
    // Take the newest tenant migration back out of every migrated tenant, with its own down().
    const source = await new DataSource({ type: 'postgres', url: db.url, poolSize: 4 }).initialize();
    try {
      const migrated = (await db.query<{ schema_name: string; role_name: string }>('SELECT schema_name, role_name FROM control.tenants WHERE migrated_to = $1', [LATEST])).map(
        (r) => r,
      );
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          const runner = source.createQueryRunner();
          await runner.connect();
          try {
            while (next < migrated.length) {
              const { schema_name, role_name } = migrated[next++];
              await runner.startTransaction();
              await runner.query(`SET LOCAL search_path TO "${schema_name}"`);
              await runner.query(`SET LOCAL ROLE "${role_name}"`);
              await new Latest().down(runner);
              await runner.query('DELETE FROM baton_migrations WHERE name = $1', [LATEST]);
              await runner.commitTransaction();
            }
          } finally {
            await runner.release();
          }
        }),
      );
      await db.query('UPDATE control.tenants SET migrated_to = $1 WHERE migrated_to = $2', [PREVIOUS, LATEST]);
    } finally {
      await source.destroy();
    }

    const dry = await runMigrate(env, ['--dry-run']);
    expect(dry.summary.tenants.behind).toBe(TENANTS);
    expect(dry.summary.tenants.pending.filter((t: { pending: string[] }) => t.pending.length === 1 && t.pending[0] === LATEST)).toHaveLength(TENANTS - 1);

    const run = await runMigrate(env);
    report('one pending migration', run);
    expect(run.code).toBe(1);
    expect(run.summary).toMatchObject({ tenants: { behind: TENANTS, migrated: TENANTS - 1, failed: 1 } });
    expect(run.summary.failed.map((f: { tenant_id: string }) => f.tenant_id)).toEqual([broken]);
    expect(await countAt(LATEST)).toBe(TENANTS - 1);
  }, 900_000);
});
