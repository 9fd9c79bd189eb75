/** The deadline of a connect-db request: connecting, checking and migrating the tenant's own database. */
export const CONNECT_DB_DEADLINE_MS = 120_000;

/** How long connect-db waits for a database to answer; a refusal never comes sooner, so its timing tells nothing either. */
export const BYODB_CONNECT_TIMEOUT_MS = 5000;

/** The one-row table in a BYODB database's `baton` schema naming the workspace that owns it. */
export const OWNER_TABLE = 'baton_owner';
