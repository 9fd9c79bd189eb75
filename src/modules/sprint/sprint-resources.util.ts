import { RequestError } from '../../common/errors/request-error';
import { normalizeFilePath, PathRules } from '../sessions/file-path.util';

const RESOURCE = /^([a-z][a-z0-9_-]{0,31}):(.+)$/s;

export interface ParsedResource {
  /** `<kind>:<name>`, with a file path in the form file locks use. */
  resource: string;
  /** Set for `file:` resources: the path as file_locks keys it. */
  filePath: string | null;
}

/**
 * Normalises declared resources: `file:` paths as file locks key them, by the
 * project's path `rules` (`file:./src//a.ts` is `file:src/a.ts`), duplicates
 * dropped, order kept.
 */
export function parseResources(values: string[], rules: PathRules = {}, field = 'touches_resources'): ParsedResource[] {
  const seen = new Set<string>();
  const out: ParsedResource[] = [];
  for (const raw of values) {
    const match = RESOURCE.exec(raw.trim());
    if (!match) throw RequestError.invalidInput(`${field} entries must look like <kind>:<path-or-name> (for example file:src/app.ts), not ${JSON.stringify(raw.slice(0, 80))}`);
    const kind = match[1];
    const name = match[2].trim();
    if (!name) throw RequestError.invalidInput(`${field} entry ${JSON.stringify(raw.slice(0, 80))} names nothing after ${kind}:`);
    const filePath = kind === 'file' ? normalizeFilePath(name, rules, field) : null;
    const resource = `${kind}:${filePath ?? name}`;
    if (seen.has(resource)) continue;
    seen.add(resource);
    out.push({ resource, filePath });
  }
  return out;
}

/** One resource given as a query value, normalised the same way. */
export function parseResource(value: string, rules: PathRules = {}): ParsedResource {
  return parseResources([value], rules, 'resource')[0];
}

/** True when any of `values` declares a file, whose path needs the project's path rules. */
export function declaresFiles(values: readonly string[]): boolean {
  return values.some((value) => value.trim().startsWith('file:'));
}
