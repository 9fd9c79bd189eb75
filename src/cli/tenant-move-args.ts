/** The arguments of `npm run tenant:move` (src/cli/tenant-move.ts) and its usage. */

export const USAGE = `usage: npm run tenant:move -- --tenant <id> --to <postgres-url> [--dry-run] [--keep-old] [--grace SECONDS] [--batch N]
       npm run tenant:move -- --tenant <id> --undo

Moves one hosted tenant's schema (tables, rows, sequences, its role and grants) to another server
of SERVICE_TENANT_DB_URLS while the tenant is in use. Its rows are copied and verified while it
reads and writes; then its writes are refused (503 with Retry-After) while what changed meanwhile
is copied again and verified, about a second; other tenants never pause. The control plane then
switches the tenant to the new server; its old schema and role are dropped once instances have
forgotten where it was (SERVICE_TOKEN_CACHE_SECONDS plus 2 s, or --grace).
Progress goes to stderr, one JSON summary to stdout. Ctrl-C or SIGTERM before the switch undoes
the move: the tenant stays where it was, writable.

  --tenant ID      the tenant (workspace) id
  --to URL         the server to move it to: one of SERVICE_TENANT_DB_URLS (matched by host, port
                   and database; the connection is made with the configured URL)
  --dry-run        check and say what would happen (sizes, rows, target reachable); change nothing
  --keep-old       leave the old schema and role in place (closed to the tenant), and print the SQL
                   that drops them
  --grace S        seconds between the switch and dropping the old schema (default:
                   SERVICE_TOKEN_CACHE_SECONDS + 2)
  --batch N        rows per copy batch (100-50000, default 5000)
  --undo           only undo a move left by a run that is gone, and move nothing

A run holds a lock on the control plane for the tenant; a tenant whose moving_to is set while no
run holds that lock was left by a run that died (killed, its machine lost): the next run undoes
that attempt first (grants restored, the target's copy dropped), then moves the tenant; --undo
undoes it and stops there (a run killed while the tenant's writes were frozen leaves them frozen
until then).

Exit status: 0 moved (dry run: nothing in the way); 1 the move failed and was undone (the tenant
is where it was, writable); 2 bad arguments, or a tenant or target a move refuses; 3 the move
failed and undoing it failed too (run the command again: it finishes the undoing); 4 moved, but
dropping the old schema failed (SQL to drop it on stderr); 75 another run is moving this tenant;
78 bad configuration; 130 interrupted before the switch, and undone.`;

export interface Options {
  tenant: string;
  to: string;
  dryRun: boolean;
  keepOld: boolean;
  graceSeconds?: number;
  batch: number;
  /** Only undo a move left by a run that is gone. */
  undo: boolean;
}

export function usageError(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

export function parseArgs(argv: string[]): Options {
  const options: Partial<Options> & { dryRun: boolean; keepOld: boolean; batch: number; undo: boolean } = { dryRun: false, keepOld: false, batch: 5000, undo: false };
  const integer = (name: string, raw: string | undefined, min: number, max: number) => {
    const n = Number(raw);
    if (raw === undefined || !Number.isInteger(n) || n < min || n > max) usageError(`${name} takes a whole number from ${min} to ${max}`);
    return n;
  };
  const text = (name: string, raw: string | undefined) => {
    if (raw === undefined || raw === '' || raw.startsWith('--')) usageError(`${name} needs a value`);
    return raw;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag === '--dry-run') options.dryRun = true;
    else if (flag === '--keep-old') options.keepOld = true;
    else if (flag === '--undo') options.undo = true;
    else if (flag === '--tenant') options.tenant = text('--tenant', inline ?? argv[++i]);
    else if (flag === '--to') options.to = text('--to', inline ?? argv[++i]);
    else if (flag === '--grace') options.graceSeconds = integer('--grace', inline ?? argv[++i], 0, 86_400);
    else if (flag === '--batch') options.batch = integer('--batch', inline ?? argv[++i], 100, 50_000);
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else usageError(`unknown argument: ${arg}`);
  }
  if (!options.tenant) usageError('--tenant is required');
  if (options.undo && (options.to || options.dryRun || options.keepOld)) usageError('--undo takes --tenant alone');
  if (!options.to && !options.undo) usageError('--to is required');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(options.tenant))
    usageError(`--tenant must be a tenant id (a UUID), not ${JSON.stringify(options.tenant.slice(0, 60))}`);
  if (options.undo) return options as Options;
  try {
    const url = new URL(options.to as string);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('protocol');
  } catch {
    usageError('--to must be a postgres:// URL, one of SERVICE_TENANT_DB_URLS');
  }
  return options as Options;
}
