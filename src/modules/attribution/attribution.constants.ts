/** Most entries in one attribution report: the newest are kept, and the report says when older ones were left out. */
export const ATTRIBUTION_ENTRY_LIMIT = 2000;

/** Tool calls that change nothing worth attributing: a session saying it is alive. Read-only tools are left out by their annotations. */
export const UNATTRIBUTED_TOOLS = ['heartbeat'];
