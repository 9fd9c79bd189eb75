import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { TenantProvisioning } from '../modules/tenants/tenant-provisioning.service';
import { fail, withCliContext } from './cli-context';

/**
 * `npm run tenant:create -- --name <name>`: provisions a hosted tenant (schema,
 * role, migrations) and prints one JSON line with its id and first API token.
 * The token is shown only here; Baton keeps its hash.
 */
async function main() {
  const { values } = parseArgs({ options: { name: { type: 'string' } }, strict: true });
  const name = values.name?.trim();
  if (!name) fail('usage: npm run tenant:create -- --name <name>');
  if (name.length > 200) fail('--name must be at most 200 characters');
  await withCliContext(async (app, config) => {
    if (!config.isHosted) fail('tenant:create needs SERVICE_MODE=hosted and SERVICE_DB_URL (a self-hosted instance has one local tenant)');
    const result = await app.get(TenantProvisioning).provision(name);
    process.stdout.write(JSON.stringify({ tenant_id: result.tenant_id, token: result.token }) + '\n');
  });
}

main().catch((error) => {
  process.stderr.write(`tenant:create failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
