import 'reflect-metadata';
import { TenantsService } from '../modules/tenants/tenants.service';
import { withCliContext } from './cli-context';

/**
 * `npm run migrate`: applies pending migrations to the shared database (the
 * SQLite file, the local schema, or the control schema) and, in hosted mode,
 * to every tenant schema and BYODB database that is behind. Booting the
 * application context does the work; this command reports it.
 */
async function main() {
  await withCliContext(async (app, config) => {
    // Booting has migrated everything it could; tenants still behind (an unreachable BYODB database) are reported.
    const behind = await app.get(TenantsService).staleTenantCount();
    process.stdout.write(JSON.stringify({ migrated: behind === 0, database: config.databaseType, mode: config.mode, tenants_behind: behind }) + '\n');
    if (behind > 0) process.exitCode = 1;
  });
}

main().catch((error) => {
  process.stderr.write(`migrate failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
