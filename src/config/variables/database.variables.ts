import { connectionUrl, connectionUrlList, integer, list, oneOf, text } from '../config.parsers';
import { variable } from './variable';

/** Storage: SQLite or the shared Postgres cluster, its bounds, and customer-supplied (BYODB) databases. */
export const DATABASE_VARIABLES = {
  dbUrl: variable<string | undefined>({
    name: 'SERVICE_DB_URL',
    description: 'Postgres connection string; when set, Postgres is used instead of SQLite',
    sensitive: true,
    parse: connectionUrl('postgres', 'postgresql'),
  }),
  tenantDbUrls: variable({
    name: 'SERVICE_TENANT_DB_URLS',
    description:
      'hosted: comma-separated Postgres URLs of the servers (databases) that hold tenant schemas, each with a pool of SERVICE_DB_POOL_SIZE; a new tenant goes to the one holding the fewest. The control plane stays on SERVICE_DB_URL, which may be one of them; empty: every tenant on SERVICE_DB_URL. A server that holds tenants must stay listed',
    sensitive: true,
    parse: connectionUrlList('postgres', 'postgresql'),
    default: [] as string[],
  }),
  tenantSpares: variable({
    name: 'SERVICE_TENANT_SPARES',
    description:
      'hosted: tenants kept provisioned in advance (schema, role, migrations) on each server new tenants may go to; a new workspace takes one at once instead of being made while its person waits, and instances serving HTTP make another in the background. Spares are no workspace: no list, count, sweep or bill shows them; npm run migrate migrates them. 0: each workspace is made when asked for',
    sensitive: false,
    parse: integer(0, 50),
    default: 2,
  }),
  dbFile: variable<string | undefined>({
    name: 'SERVICE_DB',
    description: 'path of the SQLite file (default: service.db under SERVICE_DATA_DIR)',
    sensitive: false,
    parse: text,
  }),
  dataDir: variable({
    name: 'SERVICE_DATA_DIR',
    description: 'directory for data files (SQLite file, handoff files)',
    sensitive: false,
    parse: text,
    default: 'data',
  }),
  dbPoolSize: variable({
    name: 'SERVICE_DB_POOL_SIZE',
    description: 'connections in the one pool to the shared Postgres cluster, whatever the number of tenants',
    sensitive: false,
    parse: integer(1, 200),
    default: 10,
  }),
  dbConnectionLifetimeSeconds: variable({
    name: 'SERVICE_DB_CONNECTION_LIFETIME_S',
    description:
      'Postgres: a pooled connection is closed and replaced once this old (checked when it is idle or given back), so the table metadata each connection caches for every tenant schema it has read does not grow without end (about 1 MB a tenant; docs/capacity.md); 0: never',
    sensitive: false,
    parse: integer(0, 86_400),
    default: 1800,
  }),
  dbStatementTimeoutSeconds: variable({
    name: 'SERVICE_DB_STATEMENT_TIMEOUT_S',
    description:
      'Postgres: the longest one statement of tenant work may run (statement_timeout); a server that has not answered 2 s after it is given up on and its connection dropped',
    sensitive: false,
    parse: integer(1, 600),
    default: 10,
  }),
  requestTimeoutSeconds: variable({
    name: 'SERVICE_REQUEST_TIMEOUT_S',
    description:
      'the deadline of one request: its database work is bounded to end by then, and a request still unanswered gets 503 DEADLINE_EXCEEDED; long-polls add their wait to it',
    sensitive: false,
    parse: integer(1, 300),
    default: 15,
  }),
  dbTenantShare: variable({
    name: 'SERVICE_DB_TENANT_SHARE',
    description:
      "hosted: the percentage of the shared pool's connections, and of its read connections, one tenant's work may hold at once; the rest of its work waits in its own line",
    sensitive: false,
    parse: integer(1, 100),
    default: 50,
  }),
  dbPreparedStatements: variable({
    name: 'SERVICE_DB_PREPARED_STATEMENTS',
    description:
      'Postgres: on, reads and hot writes are named prepared statements, parsed once per connection; off, every statement is unnamed and parsed each time, for a transaction-mode pooler that does not track prepared statements (PgBouncer before 1.21, or without max_prepared_statements)',
    sensitive: false,
    parse: oneOf('on', 'off'),
    default: 'on' as 'on' | 'off',
  }),
  byodbPoolSize: variable({
    name: 'SERVICE_BYODB_POOL_SIZE',
    description: 'connections per customer-supplied (BYODB) database',
    sensitive: false,
    parse: integer(1, 20),
    default: 3,
  }),
  byodbMaxPools: variable({
    name: 'SERVICE_BYODB_MAX_POOLS',
    description: 'customer-supplied databases kept open at once; the least recently used is closed first',
    sensitive: false,
    parse: integer(1, 1000),
    default: 50,
  }),
  byodbAllowedHosts: variable({
    name: 'SERVICE_BYODB_ALLOWED_HOSTS',
    description:
      'hosted: comma-separated hosts, addresses or CIDR ranges a tenant may connect as its own database (BYODB) although they are loopback, private, link-local or otherwise internal; empty: only public addresses',
    sensitive: false,
    parse: list,
    default: [] as string[],
  }),
} as const;
