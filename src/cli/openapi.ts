import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApi, toolNames } from '../openapi/openapi-builder';
import { OPENAPI_FILE } from '../openapi/openapi-file';
import { RELEASES, releaseOf } from '../openapi/release-labels';
import { renderSchemaTypes } from '../openapi/schema-types';

/** The dashboard's API types, written from the document at each build (git-ignored). */
const DASHBOARD_TYPES = join('apps', 'dashboard', 'src', 'api', 'openapi-types.gen.ts');

/**
 * `node dist/src/cli/openapi.js` writes the OpenAPI document of the code and the
 * dashboard's API types taken from it (run by `npm run build`). With `--labels` it adds the routes and tools missing from
 * `src/openapi/releases.json` under the release being prepared, and says which.
 */
const ROOT = join(__dirname, '..', '..', '..');

function main(): void {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const document = buildOpenApi({ root: ROOT, version, ledger: RELEASES });
  if (process.argv.includes('--labels')) {
    addMissingLabels(
      Object.entries(document.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
      releaseOf(version),
    );
    return;
  }
  writeFileSync(join(ROOT, OPENAPI_FILE), JSON.stringify(document));
  writeFileSync(join(ROOT, DASHBOARD_TYPES), renderSchemaTypes(document.components.schemas as Record<string, Record<string, unknown>>));
  const operations = Object.values(document.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
  process.stdout.write(
    `openapi: ${operations} operations on ${Object.keys(document.paths).length} paths, ${Object.keys(document.components.schemas).length} schemas → ${OPENAPI_FILE}\n`,
  );
}

function addMissingLabels(routes: string[], release: string): void {
  const file = join(ROOT, 'src', 'openapi', 'releases.json');
  const ledger = { routes: { ...RELEASES.routes }, tools: { ...RELEASES.tools } };
  const added: string[] = [];
  for (const route of routes) if (!Object.hasOwn(ledger.routes, route)) added.push(`${(ledger.routes[route] = release)} ${route}`);
  const tools = toolNames(ROOT);
  for (const tool of tools) if (!Object.hasOwn(ledger.tools, tool)) added.push(`${(ledger.tools[tool] = release)} tool ${tool}`);
  // What the code no longer has leaves the ledger (a route or tool that comes back later is new again).
  for (const route of Object.keys(ledger.routes).filter((r) => !routes.includes(r))) {
    delete ledger.routes[route];
    added.push(`removed ${route}`);
  }
  for (const tool of Object.keys(ledger.tools).filter((t) => !tools.includes(t))) {
    delete ledger.tools[tool];
    added.push(`removed tool ${tool}`);
  }
  const sorted = (labels: Record<string, string>) => Object.fromEntries(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(file, `${JSON.stringify({ routes: sorted(ledger.routes), tools: sorted(ledger.tools) }, null, 2)}\n`);
  process.stdout.write(added.length ? `labelled:\n${added.join('\n')}\n` : 'every route and tool already has its release\n');
}

main();
