import { QueryRunner } from 'typeorm';
import { quoteIdent } from '../../../libs/tenancy';

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
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      GROUP BY c.relname
      ORDER BY c.relname`,
    [schema],
  );
  return rows.map((r) => ({ name: r.name, columns: r.columns, insertable: r.insertable }));
}

export interface CopyOutcome {
  tables: TableTally[];
  sequences: number;
  rows: number;
  /** Milliseconds spent copying (rows, sequences, keys and triggers back) and verifying. */
  copyMs: number;
  verifyMs: number;
}

interface CopyOptions {
  batch: number;
  /** Called before each batch and step (the command's abort check: it throws to stop). */
  beforeBatch: () => void;
  onRows: (n: number) => void;
}

type ForeignKey = { tbl: string; name: string; def: string };

/**
 * Copies every row of the frozen source schema to the empty target schema and verifies them:
 * the source read in one REPEATABLE READ snapshot taken after the freeze; the target written in
 * one transaction as the tenant's role, its own triggers off (the rows come with their history)
 * and its foreign keys dropped and added back once every table is full (which checks them all).
 * Rows travel as JSON, `batch` at a time, each table's in one stream (a cursor). Then every
 * sequence takes its source value, and each table's row count and checksum (md5 over the sorted
 * md5s of its rows' text) must match on both sides, or nothing is committed on the target.
 */
export async function copySchema(source: QueryRunner, target: QueryRunner, schema: string, role: string, options: CopyOptions): Promise<CopyOutcome> {
  const s = quoteIdent(schema);
  await source.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  await target.query('BEGIN');
  try {
    await source.query(`${SAME_TEXT}; SET LOCAL search_path TO ${s}`);
    await target.query(`${SAME_TEXT}; SET LOCAL search_path TO ${s}; SET LOCAL ROLE ${quoteIdent(role)}`);
    const tables = await sameShape(source, target, schema);
    const foreignKeys = await openForCopy(target, schema, tables);
    const copyStarted = Date.now();
    let rows = 0;
    for (const table of tables) rows += await copyTable(source, target, qualified(schema, table.name), table.insertable.join(', '), options);
    const sequences = await copySequences(source, target, schema);
    options.beforeBatch();
    const restore = [
      ...tables.map((t) => `ALTER TABLE ${qualified(schema, t.name)} ENABLE TRIGGER USER`),
      ...foreignKeys.map((k) => `ALTER TABLE ${qualified(schema, k.tbl)} ADD CONSTRAINT ${quoteIdent(k.name)} ${k.def}`),
    ];
    if (restore.length) await target.query(restore.join('; '));
    const verifyStarted = Date.now();
    const tallies = await verify(source, target, schema, tables, sequences, options);
    await target.query('COMMIT');
    await source.query('COMMIT');
    return { tables: tallies, sequences: sequences.length, rows, copyMs: verifyStarted - copyStarted, verifyMs: Date.now() - verifyStarted };
  } catch (error) {
    await target.query('ROLLBACK').catch(() => undefined);
    await source.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
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

/** One table's rows, read through a cursor and written as JSON batches; the next batch is read while one is written. Returns the rows copied. */
async function copyTable(source: QueryRunner, target: QueryRunner, name: string, columns: string, options: CopyOptions): Promise<number> {
  await source.query(`DECLARE move_rows NO SCROLL CURSOR FOR SELECT to_json(t)::text AS j FROM ${name} t`);
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

/** Every sequence of the schema set on the target to its value on the source; returns their names. */
async function copySequences(source: QueryRunner, target: QueryRunner, schema: string): Promise<string[]> {
  const sequences: { name: string }[] = await source.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'S' ORDER BY 1`,
    [schema],
  );
  for (const seq of sequences) {
    const [value]: { last_value: string; is_called: boolean }[] = await source.query(`SELECT last_value::text, is_called FROM ${qualified(schema, seq.name)}`);
    await target.query('SELECT setval($1::regclass, $2::bigint, $3)', [qualified(schema, seq.name), value.last_value, value.is_called]);
  }
  return sequences.map((seq) => seq.name);
}

/** Each table's count and checksum, and each sequence's value, the same on both sides; the first difference throws. */
async function verify(source: QueryRunner, target: QueryRunner, schema: string, tables: TableShape[], sequences: string[], options: CopyOptions): Promise<TableTally[]> {
  const tallies: TableTally[] = [];
  for (const table of tables) {
    options.beforeBatch();
    const [from, to] = await Promise.all([tally(source, schema, table.name), tally(target, schema, table.name)]);
    if (from.rows !== to.rows || from.checksum !== to.checksum) {
      throw new Error(`verification failed for table ${table.name}: ${from.rows} rows on the source, ${to.rows} on the target${from.rows === to.rows ? ', checksums differ' : ''}`);
    }
    tallies.push(from);
  }
  for (const seq of sequences) {
    const read = async (r: QueryRunner) => ((await r.query(`SELECT last_value::text AS v, is_called FROM ${qualified(schema, seq)}`)) as { v: string; is_called: boolean }[])[0];
    const [from, to] = await Promise.all([read(source), read(target)]);
    if (from.v !== to.v || from.is_called !== to.is_called) throw new Error(`verification failed for sequence ${seq}: ${from.v} on the source, ${to.v} on the target`);
  }
  return tallies;
}

/** A table's row count and checksum: md5 over its rows' md5s in byte order, so row order and collation do not matter. */
async function tally(runner: QueryRunner, schema: string, table: string): Promise<TableTally> {
  const [row]: { rows: string; checksum: string }[] = await runner.query(
    `SELECT count(*) AS rows, md5(coalesce(string_agg(h, '' ORDER BY h COLLATE "C"), '')) AS checksum FROM (SELECT md5(t::text) AS h FROM ${qualified(schema, table)} t) x`,
  );
  return { table, rows: Number(row.rows), checksum: row.checksum };
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
