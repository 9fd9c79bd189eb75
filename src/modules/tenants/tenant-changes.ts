import { QueryRunner } from 'typeorm';
import { quoteIdent } from '../../../libs/tenancy';

/**
 * The changes a tenant's writes make while `npm run tenant:move` copies its rows, so that only
 * they are copied again once its writes are frozen: a row trigger on every table of its schema
 * notes the primary key of each row inserted, updated or deleted (both keys of an update that
 * changes the key), a statement trigger notes a TRUNCATE (the whole table then), in a table of
 * the schema itself. The triggers run as the tenant's role, in the transaction of the change: a
 * change that commits is noted, one that rolls back is not.
 */

/** The table of noted changes: `tbl`, and the row's key as JSON (null: the whole table). Never copied. */
export const CHANGES_TABLE = 'baton_move_changes';
const NOTE_FUNCTION = 'baton_move_note';

/** Each table's primary-key columns (none: the table has no primary key, and any change means the whole table). */
export async function primaryKeys(runner: QueryRunner, schema: string): Promise<Map<string, string[]>> {
  const rows: { tbl: string; columns: string[] }[] = await runner.query(
    `SELECT c.relname AS tbl, array_agg(a.attname::text ORDER BY array_position(i.indkey::int2[], a.attnum)) AS columns
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY(i.indkey::int2[])
      WHERE n.nspname = $1 AND i.indisprimary
      GROUP BY c.relname`,
    [schema],
  );
  return new Map(rows.map((r) => [r.tbl, r.columns]));
}

/**
 * Starts noting changes of `tables`: the table, the function and the triggers, made as the
 * tenant's role in one transaction. Each CREATE TRIGGER waits for the writes running on its
 * table (at most `lockWaitMs`, then tried again): a write that began before its table's trigger
 * has committed before the copy's snapshot, so it is in the copy; any later one is noted.
 */
export async function noteChanges(source: QueryRunner, schema: string, role: string, tables: string[], keys: Map<string, string[]>, lockWaitMs: number) {
  const s = quoteIdent(schema);
  const changes = `${s}.${quoteIdent(CHANGES_TABLE)}`;
  const fn = `${s}.${quoteIdent(NOTE_FUNCTION)}`;
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${changes} (tbl text NOT NULL, key jsonb)`,
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $note$
      DECLARE k jsonb; r jsonb; col text;
      BEGIN
        IF TG_LEVEL = 'STATEMENT' OR TG_NARGS = 0 THEN
          INSERT INTO ${changes} VALUES (TG_TABLE_NAME, NULL);
          RETURN NULL;
        END IF;
        FOREACH r IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY[to_jsonb(NEW)] WHEN 'DELETE' THEN ARRAY[to_jsonb(OLD)] ELSE ARRAY[to_jsonb(OLD), to_jsonb(NEW)] END LOOP
          k := '{}'::jsonb;
          FOREACH col IN ARRAY TG_ARGV LOOP
            k := k || jsonb_build_object(col, r -> col);
          END LOOP;
          INSERT INTO ${changes} VALUES (TG_TABLE_NAME, k);
        END LOOP;
        RETURN NULL;
      END $note$`,
    ...tables.flatMap((table) => {
      const t = `${s}.${quoteIdent(table)}`;
      const args = (keys.get(table) ?? []).map((c) => `'${c.replace(/'/g, "''")}'`).join(', ');
      return [
        `CREATE TRIGGER ${quoteIdent(NOTE_FUNCTION)} AFTER INSERT OR UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION ${fn}(${args})`,
        `CREATE TRIGGER ${quoteIdent(`${NOTE_FUNCTION}_truncate`)} AFTER TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      ];
    }),
  ];
  await withLockRetries(source, lockWaitMs, `SET LOCAL ROLE ${quoteIdent(role)};\n${statements.join(';\n')}`);
}

/** Stops noting changes: the function with its triggers, and the table of changes (nothing when there are none). */
export async function stopNotingChanges(source: QueryRunner, schema: string, lockWaitMs = 5000): Promise<void> {
  const s = quoteIdent(schema);
  await withLockRetries(source, lockWaitMs, `DROP FUNCTION IF EXISTS ${s}.${quoteIdent(NOTE_FUNCTION)}() CASCADE; DROP TABLE IF EXISTS ${s}.${quoteIdent(CHANGES_TABLE)}`);
}

/**
 * Runs `sql` in a transaction that waits at most `lockWaitMs` for each lock it needs (so the
 * tenant's work is never held back longer), tried three times when a lock was not had in time or
 * a deadlock chose it.
 */
export async function withLockRetries(runner: QueryRunner, lockWaitMs: number, sql: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await runner.query('BEGIN');
    try {
      await runner.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.trunc(lockWaitMs))}`);
      await runner.query(sql);
      await runner.query('COMMIT');
      return;
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code;
      if ((code !== '55P03' && code !== '40P01') || attempt >= 3) throw error;
    }
  }
}

/** The changes noted for one table: the distinct keys, or `whole` when the table must be copied again entirely. */
export async function changesOf(source: QueryRunner, schema: string, table: string): Promise<{ whole: boolean; keys: unknown[] }> {
  const changes = `${quoteIdent(schema)}.${quoteIdent(CHANGES_TABLE)}`;
  const [whole]: { any: boolean }[] = await source.query(`SELECT EXISTS (SELECT 1 FROM ${changes} WHERE tbl = $1 AND key IS NULL) AS any`, [table]);
  if (whole.any) return { whole: true, keys: [] };
  const rows: { key: unknown }[] = await source.query(`SELECT DISTINCT key FROM ${changes} WHERE tbl = $1`, [table]);
  return { whole: false, keys: rows.map((r) => r.key) };
}

/** The tables with changes noted. */
export async function changedTables(source: QueryRunner, schema: string): Promise<string[]> {
  const rows: { tbl: string }[] = await source.query(`SELECT DISTINCT tbl FROM ${quoteIdent(schema)}.${quoteIdent(CHANGES_TABLE)} ORDER BY 1`);
  return rows.map((r) => r.tbl);
}
