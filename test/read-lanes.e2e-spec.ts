import { Client, Pool, QueryResult } from 'pg';
import { LANE_IDLE_MS, ReadLanes } from '../libs/tenancy/read-lanes';
import { ReadScope } from '../libs/tenancy/scoped-read';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { sleep, waitUntil } from './support/wait';

/** The answer a lane gives for a single statement of `tenant` (the last result of a multi-statement one). */
async function rows(lanes: ReadLanes, text: string, tenant = '"public"'): Promise<Record<string, unknown>[]> {
  const answer = await lanes.query(tenant, text);
  const last: QueryResult = Array.isArray(answer) ? answer[answer.length - 1] : answer;
  return last.rows;
}

const settled = () => sleep(20);
/** Waits until the lanes hold `count` connections (opening one may take a while on a loaded machine). */
const holding = (lanes: ReadLanes, count: number) => waitUntil(() => lanes.held === count, 10_000, `${count} lanes held`);
/** Long enough for an idle lane to have gone back to the pool. */
const laneReleased = () => sleep(LANE_IDLE_MS + 50);

describePostgres('pipelined read lanes on a pg pool', () => {
  let db: TestDatabase;
  let pool: Pool;
  let lanes: ReadLanes;
  const POOL_SIZE = 4;
  const MAX_LANES = 2;

  beforeAll(async () => {
    db = await TestDatabase.create();
  });
  beforeEach(() => {
    pool = new Pool({ connectionString: db.url, max: POOL_SIZE });
    lanes = new ReadLanes(pool, MAX_LANES);
  });
  afterEach(async () => {
    await pool.end();
  });
  afterAll(async () => {
    await db?.drop();
  });

  test('many concurrent statements each get their own answer over at most the lanes allowed, which go back to the pool when idle', async () => {
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => rows(lanes, `SELECT ${i} AS n, pg_backend_pid() AS pid`)));
    answers.forEach((r, i) => expect(r).toEqual([{ n: i, pid: expect.any(Number) }]));
    const pids = new Set(answers.map((r) => r[0].pid));
    expect(pids.size).toBeGreaterThanOrEqual(1);
    expect(pids.size).toBeLessThanOrEqual(MAX_LANES);
    expect(pool.totalCount).toBeLessThanOrEqual(POOL_SIZE);
    await laneReleased();
    expect(lanes.held).toBe(0);
    expect(pool.idleCount).toBe(pool.totalCount);
    // A connection that served as a lane serves an ordinary checkout as before.
    const client = await pool.connect();
    try {
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      client.release();
    }
  });

  test('statements issued in one turn travel together on one connection, sixteen at most', async () => {
    const pids = async (count: number) => {
      const answers = await Promise.all(Array.from({ length: count }, () => rows(lanes, 'SELECT pg_backend_pid() AS pid')));
      return new Set(answers.map((r) => r[0].pid));
    };
    expect((await pids(16)).size).toBe(1);
    await settled();
    // The seventeenth looks for another lane.
    expect((await pids(17)).size).toBe(2);
  });

  test("a tenant's statements go back to the connection that carried its statements before, even when another lane gathers the turn's write", async () => {
    const pid = async (tenant: string, text = 'SELECT pg_backend_pid() AS pid') => (await rows(lanes, text, tenant))[0].pid as number;
    // Each tenant's first statement, a slow one, holds its own lane: b's finds a's lane busy and borrows another.
    const holdA = pid('"tenant_a"', 'SELECT pg_backend_pid() AS pid, pg_sleep(1)');
    await holding(lanes, 1);
    const holdB = pid('"tenant_b"', 'SELECT pg_backend_pid() AS pid, pg_sleep(1)');
    await holding(lanes, MAX_LANES);
    // In one turn, b first: were the lanes chosen without regard to whom they met, both would travel on one lane.
    const [b, a] = await Promise.all([pid('"tenant_b"'), pid('"tenant_a"')]);
    const [metA, metB] = await Promise.all([holdA, holdB]);
    expect(metA).not.toBe(metB);
    expect(a).toBe(metA);
    expect(b).toBe(metB);
  });

  test('a statement that fails does not disturb those pipelined with it', async () => {
    const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => rows(lanes, i % 3 === 1 ? `SELECT ${i} / 0 AS n` : `SELECT ${i} AS n`)));
    results.forEach((result, i) => {
      if (i % 3 === 1) {
        expect(result.status).toBe('rejected');
        expect((result as PromiseRejectedResult).reason.message).toMatch(/division by zero/);
      } else {
        expect(result).toEqual({ status: 'fulfilled', value: [{ n: i }] });
      }
    });
  });

  test('SET LOCAL scoping ends with its statement: the next one on the same lane sees none of it', async () => {
    await db.query('CREATE SCHEMA IF NOT EXISTS lane_a');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 2
          ? rows(
              lanes,
              `SET LOCAL search_path TO lane_a; SET LOCAL transaction_read_only TO on; SELECT current_setting('search_path') AS sp, current_setting('transaction_read_only') AS ro`,
            )
          : rows(lanes, `SELECT current_setting('search_path') AS sp, current_setting('transaction_read_only') AS ro`),
      ),
    );
    answers.forEach((r, i) => expect(r).toEqual([i % 2 ? { sp: 'lane_a', ro: 'on' } : { sp: '"$user", public', ro: 'off' }]));
  });

  test('the lanes leave the rest of the pool to others while they are busy', async () => {
    const slow = Array.from({ length: 6 }, () => rows(lanes, 'SELECT pg_sleep(0.1) AS slept'));
    await sleep(50);
    expect(lanes.held).toBeLessThanOrEqual(MAX_LANES);
    const others = await Promise.all(Array.from({ length: POOL_SIZE - MAX_LANES }, () => pool.connect()));
    try {
      expect(others).toHaveLength(POOL_SIZE - MAX_LANES);
    } finally {
      others.forEach((c) => c.release());
    }
    await Promise.all(slow);
  });

  test('with every pool connection checked out, a read waits for one instead of failing', async () => {
    const taken = await Promise.all(Array.from({ length: POOL_SIZE }, () => pool.connect()));
    const pending = rows(lanes, 'SELECT 7 AS n');
    let done = false;
    void pending.then(() => (done = true));
    await sleep(100);
    expect(done).toBe(false);
    taken[0].release();
    await expect(pending).resolves.toEqual([{ n: 7 }]);
    taken.slice(1).forEach((c) => c.release());
  });

  test('a lane that goes idle while a checkout waits for a connection goes back to the pool at once', async () => {
    // The lane's statement waits on an advisory lock held outside the pool, so it stays busy until the test lets it go.
    const locker = new Client({ connectionString: db.url });
    await locker.connect();
    try {
      await locker.query('SELECT pg_advisory_lock(7431)');
      const slow = rows(lanes, 'SELECT pg_advisory_xact_lock(7431)::text AS locked');
      await holding(lanes, 1);
      const taken = await Promise.all(Array.from({ length: POOL_SIZE - 1 }, () => pool.connect()));
      let handedOver = false;
      const waiting = pool.connect().then((client) => {
        handedOver = true;
        return client;
      });
      try {
        expect(pool.waitingCount).toBe(1);
        await locker.query('SELECT pg_advisory_unlock(7431)');
        await slow;
        // The lane is released after this turn's I/O, before any timer set now can fire; kept for
        // LANE_IDLE_MS, it would still be held when this one fires.
        await new Promise((resolve) => setTimeout(resolve, 1));
        expect(handedOver).toBe(true);
        expect(lanes.held).toBe(0);
      } finally {
        [...taken, await waiting].forEach((client) => client.release());
      }
    } finally {
      await locker.end();
    }
  });

  test('a lane whose connection dies fails the statements in flight on it, and the next read gets a new connection', async () => {
    const lanes = new ReadLanes(pool, 1); // both statements on one connection
    const inFlight = rows(lanes, 'SELECT pg_sleep(5)');
    const behind = rows(lanes, 'SELECT 2 AS n');
    await sleep(50);
    const [{ backend }] = await db.query<{ backend: number }>("SELECT pid AS backend FROM pg_stat_activity WHERE datname = current_database() AND query = 'SELECT pg_sleep(5)'");
    expect(typeof backend).toBe('number');
    await db.query('SELECT pg_terminate_backend($1)', [backend]);
    await expect(inFlight).rejects.toThrow();
    await expect(behind).rejects.toThrow();
    const [{ pid: after }] = await rows(lanes, 'SELECT pg_backend_pid() AS pid');
    expect(after).not.toBe(backend);
    await laneReleased();
    expect(lanes.held).toBe(0);
    expect(pool.totalCount).toBeLessThanOrEqual(POOL_SIZE);
  });
});

describePostgres('scoped reads: prepared, scoped and read-only', () => {
  let db: TestDatabase;
  let pool: Pool;
  let lanes: ReadLanes;
  const suffix = Math.random().toString(16).slice(2, 10);
  const roleA = `lane_a_${suffix}`;
  const roleB = `lane_b_${suffix}`;
  const scopeA: ReadScope = { searchPath: '"sa"', role: roleA, statementTimeout: '0' };
  const scopeB: ReadScope = { searchPath: '"sb"', role: roleB, statementTimeout: '0' };

  beforeAll(async () => {
    db = await TestDatabase.create();
    await db.query(`
      CREATE ROLE ${roleA} NOLOGIN; CREATE ROLE ${roleB} NOLOGIN;
      GRANT ${roleA} TO CURRENT_USER; GRANT ${roleB} TO CURRENT_USER;
      CREATE SCHEMA sa AUTHORIZATION ${roleA}; CREATE SCHEMA sb AUTHORIZATION ${roleB};
      CREATE TABLE sa.items (id int PRIMARY KEY, label text); CREATE TABLE sb.items (id int PRIMARY KEY, label text);
      ALTER TABLE sa.items OWNER TO ${roleA}; ALTER TABLE sb.items OWNER TO ${roleB};
      INSERT INTO sa.items VALUES (1, 'a one'), (2, 'a two'); INSERT INTO sb.items VALUES (1, 'b one');
    `);
  });
  beforeEach(() => {
    pool = new Pool({ connectionString: db.url, max: 4 });
    lanes = new ReadLanes(pool, 1); // every read on one connection, so they share its prepared statements
  });
  afterEach(async () => {
    await pool.end();
  });
  afterAll(async () => {
    await db?.drop();
    await TestDatabase.dropRoles([roleA, roleB]);
  });

  test("the same statement for two tenants, interleaved on one connection, reads each tenant's own table", async () => {
    const text = 'SELECT id, label FROM items WHERE id = $1';
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => lanes.read(i % 2 ? scopeA : scopeB, text, [1])));
    answers.forEach((r, i) => expect(r.rows).toEqual([{ id: 1, label: i % 2 ? 'a one' : 'b one' }]));
    // the scoping ended with each read
    const [{ sp, usr }] = (await pool.query("SELECT current_setting('search_path') AS sp, current_user AS usr")).rows;
    expect(sp).toBe('"$user", public');
    expect(usr).not.toMatch(/^lane_/);
  });

  test("a tenant's role cannot read another tenant's schema, and a read cannot write", async () => {
    await expect(lanes.read(scopeA, 'SELECT label FROM sb.items', [])).rejects.toThrow(/permission denied/);
    await expect(lanes.read(scopeA, "INSERT INTO items VALUES (9, 'x')", [])).rejects.toThrow(/read-only transaction/);
    expect((await db.query('SELECT count(*)::int AS n FROM sa.items'))[0]).toEqual({ n: 2 });
  });

  test('parameters convert as pg converts bound values', async () => {
    const when = new Date('2026-03-04T05:06:07.089Z');
    const r = await lanes.read(scopeA, 'SELECT $1::timestamptz AS d, $2::int[] AS a, $3::text AS n, $4::jsonb AS j, $5::bytea AS b, $6::text AS s', [
      when,
      [1, 2, 3],
      null,
      { k: ["it's"] },
      Buffer.from([0, 255]),
      "quote ' and \\ backslash",
    ]);
    expect(r.rows).toEqual([{ d: when, a: [1, 2, 3], n: null, j: { k: ["it's"] }, b: Buffer.from([0, 255]), s: "quote ' and \\ backslash" }]);
  });

  test('a read whose scoping fails does not break the reads pipelined behind it', async () => {
    const text = `SELECT label FROM items WHERE id = $1 AND ${Math.floor(Math.random() * 1e9)} > 0`; // new on this connection
    const broken: ReadScope = { searchPath: '"sa"', role: `no_such_role_${suffix}`, statementTimeout: '0' };
    const [first, second, third] = await Promise.allSettled([lanes.read(broken, text, [1]), lanes.read(scopeA, text, [2]), lanes.read(scopeB, text, [1])]);
    expect(first.status).toBe('rejected');
    expect((first as PromiseRejectedResult).reason.message).toMatch(/role .* does not exist/);
    expect(second).toEqual({ status: 'fulfilled', value: expect.objectContaining({ rows: [{ label: 'a two' }] }) });
    expect(third).toEqual({ status: 'fulfilled', value: expect.objectContaining({ rows: [{ label: 'b one' }] }) });
  });

  test('a table whose columns changed is read with its new columns', async () => {
    await db.query('CREATE TABLE sa.shapes (id int); INSERT INTO sa.shapes VALUES (1)');
    await db.query(`ALTER TABLE sa.shapes OWNER TO ${roleA}`);
    expect((await lanes.read(scopeA, 'SELECT * FROM shapes', [])).rows).toEqual([{ id: 1 }]);
    await db.query("ALTER TABLE sa.shapes ADD COLUMN note text DEFAULT 'added'");
    expect((await lanes.read(scopeA, 'SELECT * FROM shapes', [])).rows).toEqual([{ id: 1, note: 'added' }]);
  });

  test('later reads of a statement, described once per connection, give the same typed rows', async () => {
    const text =
      "SELECT id, label, now() - now() AS span, '2026-01-02T03:04:05Z'::timestamptz AS at, '{\"k\": [1]}'::jsonb AS j, NULL::int AS nothing FROM items WHERE id <= $1 ORDER BY id";
    for (let i = 0; i < 3; i++) {
      for (const [scope, expected] of [
        [
          scopeA,
          [
            [1, 'a one'],
            [2, 'a two'],
          ],
        ],
        [scopeB, [[1, 'b one']]],
      ] as const) {
        const { rows, rowCount, command } = await lanes.read(scope, text, [2]);
        expect(command).toBe('SELECT');
        expect(rowCount).toBe(expected.length);
        expect(rows).toEqual(expected.map(([id, label]) => ({ id, label, span: expect.anything(), at: new Date('2026-01-02T03:04:05Z'), j: { k: [1] }, nothing: null })));
      }
    }
    // A statement that returns no rows answers an empty list, described or not.
    for (let i = 0; i < 2; i++) expect((await lanes.read(scopeA, 'SELECT id FROM items WHERE id > $1', [99])).rows).toEqual([]);
  });

  test('a value pg cannot convert fails that read only', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(lanes.read(scopeA, 'SELECT $1::jsonb AS j', [circular])).rejects.toThrow(/circular/i);
    expect((await lanes.read(scopeA, 'SELECT count(*)::int AS n FROM items', [])).rows).toEqual([{ n: 2 }]);
  });
});
