import { QueryRunner } from 'typeorm';
import { quoteIdent } from '../../../libs/tenancy';
import { changedTables, changesOf, CHANGES_TABLE, primaryKeys } from './tenant-changes';

/**
 * The copy of `npm run tenant:move` (src/cli/tenant-move.ts, src/modules/tenants/tenant-move.ts):
 * one tenant's rows and sequences from its frozen schema on one server to the empty, identically
 * migrated schema on another, verified before anything is committed there.
 */

/** One table of a tenant's schema: its name and its columns as `name type`, in order. */
export interface TableShape {
  name: string;
  columns: string;
  /** Columns an INSERT may name (not generated). */
  insertable: string[];
}

/** What one table held at the freeze, on the source, and on the target after the copy. */
export interface TableTally {
  table: string;
  rows: number;
  checksum: string;
}

/** Settings under which a row's text is the same on any server (the checksum compares texts). */
const SAME_TEXT = [
  "SET LOCAL TimeZone = 'UTC'",
  "SET LOCAL DateStyle = 'ISO, MDY'",
  "SET LOCAL IntervalStyle = 'postgres'",
  'SET LOCAL extra_float_digits = 1',
  "SET LOCAL bytea_output = 'hex'",
].join('; ');

/** The table where the migration runner records what a schema has applied: made by the migrations on the target, never copied. */
const MIGRATIONS_TABLE = 'baton_migrations';

/** The tables of `schema` (partitions counted under their parent), with their columns in order. */
export async function tablesOf(runner: QueryRunner, schema: string): Promise<TableShape[]> {
  const rows: { name: string; columns: string; insertable: string[] }[] = await runner.query(
    `SELECT c.relname AS name,
            string_agg(quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum) AS columns,
            array_agg(quote_ident(a.attname) ORDER BY a.attnum) FILTER (WHERE a.attgenerated = '') AS insertable
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> $2
      GROUP BY c.relname
      ORDER BY c.relname`,
    [schema, CHANGES_TABLE],
  );
  return rows.map((r) => ({ name: r.name, columns: r.columns, insertable: r.insertable }));
}

/** What the bulk copy did, and what the catch-up after the freeze needs of it. */
export interface BulkCopy {
  tables: TableShape[];
  /** The target's foreign keys, dropped for the copy and added back by the catch-up. */
  foreignKeys: ForeignKey[];
  rows: number;
  /** Milliseconds spent copying and verifying. */
  copyMs: number;
  verifyMs: number;
}

/** What the catch-up after the freeze did. */
export interface CatchUp {
  tallies: TableTally[];
  sequences: number;
  /** Rows copied again (changed while the bulk copy ran), and tables copied again whole. */
  rows: number;
  wholeTables: number;
  ms: number;
}

interface CopyOptions {
  batch: number;
  /** Called before each batch and step (the command's abort check: it throws to stop). */
  beforeBatch: () => void;
  onRows: (n: number) => void;
}

type ForeignKey = { tbl: string; name: string; def: string };

/** The source in one REPEATABLE READ snapshot, the target in one transaction as the tenant's role; both rolled back if `work` fails. */
async function inCopyTransactions<T>(source: QueryRunner, target: QueryRunner, schema: string, role: string, work: () => Promise<T>): Promise<T> {
  const s = quoteIdent(schema);
  await source.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  await target.query('BEGIN');
  try {
    await source.query(`${SAME_TEXT}; SET LOCAL search_path TO ${s}`);
    await target.query(`${SAME_TEXT}; SET LOCAL search_path TO ${s}; SET LOCAL ROLE ${quoteIdent(role)}`);
    const result = await work();
    await target.query('COMMIT');
    await source.query('COMMIT');
    return result;
  } catch (error) {
    await target.query('ROLLBACK').catch(() => undefined);
    await source.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Copies every row of the source schema, as one REPEATABLE READ snapshot shows it, to the empty
 * target schema while the tenant goes on writing (its changes noted, tenant-changes.ts), and
 * verifies the copy against that snapshot: each table's row count and checksum (md5 over the
 * byte-sorted md5s of its rows' text) the same on both sides, or nothing is committed on the
 * target. The target is written as the tenant's role with its own triggers off (the rows come with
 * their history) and its foreign keys dropped (they come back with the catch-up, which checks
 * them). Rows travel as JSON, `batch` at a time through a cursor, the next batch read while one is
 * written.
 */
export async function bulkCopy(source: QueryRunner, target: QueryRunner, schema: string, role: string, options: CopyOptions): Promise<BulkCopy> {
  return inCopyTransactions(source, target, schema, role, async () => {
    const tables = await sameShape(source, target, schema);
    const foreignKeys = await openForCopy(target, schema, tables);
    const copyStarted = Date.now();
    let rows = 0;
    for (const table of tables) rows += await copyRows(source, target, qualified(schema, table.name), table.insertable.join(', '), '', [], options);
    const verifyStarted = Date.now();
    for (const table of tables) {
      options.beforeBatch();
      await sameTally(source, target, schema, table.name);
    }
    return { tables, foreignKeys, rows, copyMs: verifyStarted - copyStarted, verifyMs: Date.now() - verifyStarted };
  });
}

/**
 * Once the tenant's writes are frozen: copies again what changed since the bulk copy's snapshot
 * (each noted key's row deleted on the target and copied from the source if it still exists; a
 * table truncated or without a primary key copied again whole), sets every sequence to its
 * source value, turns the target's triggers back on and adds its foreign keys back (which checks
 * every row against them). Verified before anything is committed: every table's row count the
 * same on both sides, the rows copied again the same (checksums over their keys), each table
 * copied whole the same (count and checksum), every sequence's value the same.
 */
export async function catchUp(source: QueryRunner, target: QueryRunner, schema: string, role: string, bulk: BulkCopy, options: CopyOptions): Promise<CatchUp> {
  const started = Date.now();
  return inCopyTransactions(source, target, schema, role, async () => {
    const keys = await primaryKeys(source, schema);
    let rows = 0;
    let wholeTables = 0;
    for (const table of await changedTables(source, schema)) {
      const shape = bulk.tables.find((t) => t.name === table);
      if (!shape) continue;
      const name = qualified(schema, table);
      const columns = shape.insertable.join(', ');
      const changed = await changesOf(source, schema, table);
      const pk = keys.get(table) ?? [];
      if (changed.whole || pk.length === 0) {
        options.beforeBatch();
        await target.query(`DELETE FROM ${name}`);
        rows += await copyRows(source, target, name, columns, '', [], options);
        await sameTally(source, target, schema, table);
        wholeTables += 1;
        continue;
      }
      const on = pk.map((c) => `t.${quoteIdent(c)} = k.${quoteIdent(c)}`).join(' AND ');
      for (let i = 0; i < changed.keys.length; i += options.batch) {
        options.beforeBatch();
        const batch = JSON.stringify(changed.keys.slice(i, i + options.batch));
        const join = `JOIN jsonb_populate_recordset(NULL::${name}, $1::jsonb) k ON ${on}`;
        await target.query(`DELETE FROM ${name} t USING jsonb_populate_recordset(NULL::${name}, $1::jsonb) k WHERE ${on}`, [batch]);
        rows += await copyRows(source, target, name, columns, join, [batch], options);
        await sameTally(source, target, schema, table, join, [batch]);
      }
    }
    const sequences = await copySequences(source, target, schema);
    options.beforeBatch();
    const restore = [
      ...bulk.tables.map((t) => `ALTER TABLE ${qualified(schema, t.name)} ENABLE TRIGGER USER`),
      ...bulk.foreignKeys.map((k) => `ALTER TABLE ${qualified(schema, k.tbl)} ADD CONSTRAINT ${quoteIdent(k.name)} ${k.def}`),
    ];
    if (restore.length) await target.query(restore.join('; '));
    const tallies = await sameCounts(source, target, schema, bulk.tables);
    await sameSequences(target, schema, sequences);
    return { tallies, sequences: sequences.length, rows, wholeTables, ms: Date.now() - started };
  });
}

/** The tables to copy, once both schemas are found to have the same tables with the same columns. */
async function sameShape(source: QueryRunner, target: QueryRunner, schema: string): Promise<TableShape[]> {
  const [sourceTables, targetTables] = [await tablesOf(source, schema), await tablesOf(target, schema)];
  const shapeOf = (tables: TableShape[]) => tables.map((t) => `${t.name}(${t.columns})`).join('\n');
  if (shapeOf(sourceTables) !== shapeOf(targetTables)) {
    const differing = sourceTables.filter((t) => targetTables.find((o) => o.name === t.name)?.columns !== t.columns).map((t) => t.name);
    const missing = targetTables.filter((t) => !sourceTables.some((o) => o.name === t.name)).map((t) => t.name);
    throw new Error(`the source and target schemas differ in shape (${[...differing, ...missing].join(', ') || 'table list'}): is the tenant migrated?`);
  }
  return sourceTables.filter((t) => t.name !== MIGRATIONS_TABLE);
}

/** The target's tables emptied, their triggers off and foreign keys dropped, in the copy's transaction; returns the keys to add back. */
async function openForCopy(target: QueryRunner, schema: string, tables: TableShape[]): Promise<ForeignKey[]> {
  const foreignKeys: ForeignKey[] = await target.query(
    `SELECT c.relname AS tbl, k.conname AS name, pg_get_constraintdef(k.oid) AS def
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND k.contype = 'f'`,
    [schema],
  );
  const statements = [
    ...foreignKeys.map((k) => `ALTER TABLE ${qualified(schema, k.tbl)} DROP CONSTRAINT ${quoteIdent(k.name)}`),
    ...tables.map((t) => `ALTER TABLE ${qualified(schema, t.name)} DISABLE TRIGGER USER`),
  ];
  if (statements.length) await target.query(statements.join('; '));
  // Migrations may leave rows of their own (defaults); the copy brings the tenant's.
  if (tables.length) await target.query(`TRUNCATE ${tables.map((t) => qualified(schema, t.name)).join(', ')}`);
  return foreignKeys;
}

/**
 * Rows of one table (those `join`, with its `params`, selects; all without), read through a cursor
 * and written as JSON batches, the next batch read while one is written. Returns the rows copied.
 */
async function copyRows(source: QueryRunner, target: QueryRunner, name: string, columns: string, join: string, params: unknown[], options: CopyOptions): Promise<number> {
  await source.query(`DECLARE move_rows NO SCROLL CURSOR FOR SELECT to_json(t)::text AS j FROM ${name} t ${join}`, params);
  const fetch = (): Promise<{ j: string }[]> => {
    const rows: Promise<{ j: string }[]> = source.query(`FETCH ${options.batch} FROM move_rows`);
    rows.catch(() => undefined); // awaited below; an abort in between leaves it unawaited
    return rows;
  };
  let copied = 0;
  let next = fetch();
  for (;;) {
    options.beforeBatch();
    const rows = await next;
    if (rows.length === 0) break;
    next = fetch();
    await target.query(`INSERT INTO ${name} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::${name}, $1::json)`, [
      `[${rows.map((r) => r.j).join(',')}]`,
    ]);
    copied += rows.length;
    options.onRows(rows.length);
  }
  await source.query('CLOSE move_rows');
  return copied;
}

/** Every sequence of the schema set on the target to its value on the source; returns each with the value set. */
async function copySequences(source: QueryRunner, target: QueryRunner, schema: string): Promise<SequenceValue[]> {
  const sequences: { name: string }[] = await source.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'S' ORDER BY 1`,
    [schema],
  );
  const values: SequenceValue[] = [];
  for (const seq of sequences) {
    const [value]: { v: string; is_called: boolean }[] = await source.query(`SELECT last_value::text AS v, is_called FROM ${qualified(schema, seq.name)}`);
    await target.query('SELECT setval($1::regclass, $2::bigint, $3)', [qualified(schema, seq.name), value.v, value.is_called]);
    values.push({ name: seq.name, ...value });
  }
  return values;
}

type SequenceValue = { name: string; v: string; is_called: boolean };

/** The table's rows (those `join` selects) have the same count and checksum on both sides, or this throws. */
async function sameTally(source: QueryRunner, target: QueryRunner, schema: string, table: string, join = '', params: unknown[] = []): Promise<TableTally> {
  const [from, to] = await Promise.all([tally(source, schema, table, join, params), tally(target, schema, table, join, params)]);
  if (from.rows !== to.rows || from.checksum !== to.checksum) {
    throw new Error(`verification failed for table ${table}: ${from.rows} rows on the source, ${to.rows} on the target${from.rows === to.rows ? ', checksums differ' : ''}`);
  }
  return from;
}

/** Every table has as many rows on both sides, or this throws. */
async function sameCounts(source: QueryRunner, target: QueryRunner, schema: string, tables: TableShape[]): Promise<TableTally[]> {
  if (tables.length === 0) return [];
  const sql = `SELECT ${tables.map((t, i) => `(SELECT count(*) FROM ${qualified(schema, t.name)}) AS n${i}`).join(', ')}`;
  const [[from], [to]]: Record<string, string>[][] = await Promise.all([source.query(sql), target.query(sql)]);
  return tables.map((t, i) => {
    if (from[`n${i}`] !== to[`n${i}`]) throw new Error(`verification failed for table ${t.name}: ${from[`n${i}`]} rows on the source, ${to[`n${i}`]} on the target`);
    return { table: t.name, rows: Number(from[`n${i}`]), checksum: '' };
  });
}

/**
 * Every sequence of the target holds the value read on the source, or this throws. (The source's
 * own may have moved on since, by a nextval whose write the freeze refused: no row holds it.)
 */
async function sameSequences(target: QueryRunner, schema: string, sequences: SequenceValue[]): Promise<void> {
  for (const seq of sequences) {
    const [to]: { v: string; is_called: boolean }[] = await target.query(`SELECT last_value::text AS v, is_called FROM ${qualified(schema, seq.name)}`);
    if (to.v !== seq.v || to.is_called !== seq.is_called) throw new Error(`verification failed for sequence ${seq.name}: ${seq.v} on the source, ${to.v} on the target`);
  }
}

/** A table's (or its joined rows') count and checksum: md5 over the rows' md5s in byte order, so row order and collation do not matter. */
async function tally(runner: QueryRunner, schema: string, table: string, join = '', params: unknown[] = []): Promise<TableTally> {
  const [row]: { rows: string; checksum: string }[] = await runner.query(
    `SELECT count(*) AS rows, md5(coalesce(string_agg(h, '' ORDER BY h COLLATE "C"), '')) AS checksum FROM (SELECT md5(t::text) AS h FROM ${qualified(schema, table)} t ${join}) x`,
    params,
  );
  return { table, rows: Number(row.rows), checksum: row.checksum };
}

/** The tables a move copies: all but the migration runner's record (made by the migrations on the target). */
export async function copiedTables(runner: QueryRunner, schema: string): Promise<string[]> {
  return (await tablesOf(runner, schema)).filter((t) => t.name !== MIGRATIONS_TABLE).map((t) => t.name);
}

/** Exact row counts of every table of `schema` (the copy's total, for the progress bar). */
export async function rowCounts(runner: QueryRunner, schema: string): Promise<number> {
  const tables = (await tablesOf(runner, schema)).filter((t) => t.name !== MIGRATIONS_TABLE);
  if (tables.length === 0) return 0;
  const [row]: { n: string }[] = await runner.query(`SELECT (${tables.map((t) => `(SELECT count(*) FROM ${qualified(schema, t.name)})`).join(' + ')}) AS n`);
  return Number(row.n);
}

export function qualified(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}
