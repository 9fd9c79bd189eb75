import 'reflect-metadata';
import { redactSecrets } from '../../libs/secrets';
import { parseArgs } from './tenant-move-args';
import type * as TenantMover from './tenant-mover';

/**
 * `npm run tenant:move -- --tenant <id> --to <url>`: one hosted tenant's schema to another server
 * of SERVICE_TENANT_DB_URLS while it is in use (src/cli/tenant-mover.ts). Its arguments are read
 * before anything else is loaded, so a mistyped one is answered at once.
 */
async function main() {
  const options = parseArgs(process.argv.slice(2));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded once the arguments are good (see above)
  const { moveTenant } = require('./tenant-mover') as typeof TenantMover;
  await moveTenant(options);
}

main().catch((error) => {
  process.stderr.write(`tenant:move failed: ${redactSecrets(error instanceof Error ? error.message : String(error))}\n`);
  process.exit(1);
});
