import { RequestError } from '../../common/errors/request-error';

/** How a project spells its files: its repository's root on disk, and whether its file system ignores case. */
export interface PathRules {
  /** `executor_config.repo_path`: an absolute path under it may be given and is made relative. */
  repoRoot?: string | null;
  /** `executor_config.case_insensitive_paths`: `SRC/App.ts` and `src/app.ts` are one file (keyed in lower case). */
  caseInsensitive?: boolean;
}

/** `/x`, `C:/x`, `//server/share`: spellings that start from a root rather than from the repository. */
const ABSOLUTE = /^(?:\/|[A-Za-z]:(?:\/|$))/;

/**
 * The one key a file is locked and declared under: its path relative to the repository root,
 * with forward slashes, without `.` segments, `..` resolved, and repeated or trailing slashes
 * dropped, so `./src//lib/../a.ts`, `src\a.ts` and `src/a.ts` are one file. A path that climbs
 * out of the repository is refused, and so is an absolute one unless it lies under the project's
 * repository root, which is then cut off. With `caseInsensitive`, the key is in lower case.
 * `field` names the input in refusals.
 */
export function normalizeFilePath(raw: string, rules: PathRules = {}, field = 'file_path'): string {
  let path = raw.trim().replace(/\\/g, '/');
  if (ABSOLUTE.test(path)) path = underRoot(path, rules, field);
  const kept: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') kept.push(part);
    else if (!kept.pop()) throw RequestError.invalidInput(`${field} must stay inside the repository: ${JSON.stringify(raw.slice(0, 200))} climbs above its root`);
  }
  if (kept.length === 0) throw RequestError.invalidInput(`${field} must name a file`);
  const key = kept.join('/');
  return rules.caseInsensitive ? key.toLowerCase() : key;
}

/** The part of an absolute `path` below the project's repository root; refused when it is not under it. */
function underRoot(path: string, rules: PathRules, field: string): string {
  const root = rules.repoRoot?.trim().replace(/\\/g, '/').replace(/\/+$/, '');
  const same = (a: string, b: string) => (rules.caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (root && ABSOLUTE.test(root) && path.length > root.length && path[root.length] === '/' && same(path.slice(0, root.length), root)) {
    return path.slice(root.length + 1);
  }
  const where = root ? ` (absolute paths are accepted only under the project's repository, ${root})` : '';
  throw RequestError.invalidInput(`${field} must be relative to the repository root, for example src/app.ts, not an absolute path${where}`);
}
