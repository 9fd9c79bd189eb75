import ledgerFile from './releases.json';

/**
 * The release that first shipped each route and each MCP tool ("v<major>.<minor>",
 * spec §9). The ledger (`releases.json`) is written by hand when the surface
 * grows: `npm run release-labels` adds what is missing under the release being
 * prepared (from package.json), and a test fails while anything has no label.
 */
export interface ReleaseLedger {
  routes: Record<string, string>;
  tools: Record<string, string>;
}

export const RELEASES: ReleaseLedger = ledgerFile;

/** `GET /projects/{project_id}`: the ledger's key of a route. */
export function routeKey(method: string, openApiPath: string): string {
  return `${method.toUpperCase()} ${openApiPath}`;
}

export function releaseLabel(labels: Record<string, string>, key: string): string | undefined {
  return Object.hasOwn(labels, key) ? labels[key] : undefined;
}

/** `0.1.0` → `v0.1`: the label of the release a version belongs to. */
export function releaseOf(version: string): string {
  const match = /^(\d+)\.(\d+)/.exec(version);
  if (!match) throw new Error(`"${version}" is not a semantic version`);
  return `v${match[1]}.${match[2]}`;
}
