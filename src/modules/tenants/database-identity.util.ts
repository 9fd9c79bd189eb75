/** What tells one Postgres database from another, whatever address or name reached it. */
export interface DatabaseIdentity {
  system: string | null;
  db: string;
  oid: string;
  started: string;
}

/**
 * Which server and database a connection reaches. The cluster's
 * `system_identifier` may be closed to an ordinary role (some managed
 * services revoke `pg_control_system()`), so the server's start time and
 * the database's oid, which every role can read, identify it as well.
 */
export async function databaseIdentity(runner: { query: (sql: string) => Promise<unknown> }): Promise<DatabaseIdentity> {
  const [row] = (await runner.query(
    'SELECT current_database() AS db, d.oid::text AS oid, pg_postmaster_start_time()::text AS started FROM pg_database d WHERE d.datname = current_database()',
  )) as { db: string; oid: string; started: string }[];
  let system: string | null = null;
  try {
    const [id] = (await runner.query('SELECT system_identifier::text AS id FROM pg_control_system()')) as { id: string }[];
    system = id?.id ?? null;
  } catch {
    // Not readable by this role: the start time and oid decide alone.
  }
  return { system, db: row.db, oid: row.oid, started: row.started };
}

/** Whether two identities name the same database of the same cluster, by either identity. */
export function isSameDatabase(a: DatabaseIdentity, b: DatabaseIdentity): boolean {
  if (a.db !== b.db) return false;
  const sameCluster = a.system !== null && a.system === b.system;
  return sameCluster || (a.oid === b.oid && a.started === b.started);
}
