import { ENTRY_POINTS, LANGUAGES, MANIFEST_EXTENSIONS, MANIFESTS } from './codebase-map.constants';

export interface MappedFile {
  path: string;
  size?: number;
}

export interface LanguageCount {
  language: string;
  files: number;
  /** Bytes of the files whose size was given. */
  bytes: number;
}

export interface MappedPackage {
  /** The package's folder, `.` for the repository root. */
  path: string;
  ecosystems: string[];
  manifests: string[];
  entry_points: string[];
  languages: LanguageCount[];
  file_count: number;
}

export interface CodebaseMapBody {
  file_count: number;
  total_bytes: number;
  languages: LanguageCount[];
  manifests: string[];
  entry_points: string[];
  packages: MappedPackage[];
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '.' : path.slice(0, i);
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function extOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i <= 0 ? '' : name.slice(i + 1).toLowerCase();
}

function ecosystemOf(name: string): string | undefined {
  return MANIFESTS[name] ?? MANIFEST_EXTENSIONS[extOf(name)];
}

/** The innermost package folder holding `dir`. */
function packageOf(dir: string, packages: Set<string>): string {
  for (let d = dir; ; d = dirOf(d)) {
    if (packages.has(d)) return d;
    if (d === '.') return '.';
  }
}

function depthBelow(pkg: string, path: string): number {
  const rest = pkg === '.' ? path : path.slice(pkg.length + 1);
  return rest.split('/').length - 1;
}

function tally(counts: Map<string, LanguageCount>, language: string, size: number): void {
  const c = counts.get(language) ?? { language, files: 0, bytes: 0 };
  c.files += 1;
  c.bytes += size;
  counts.set(language, c);
}

const byFiles = (a: LanguageCount, b: LanguageCount) => b.files - a.files || a.language.localeCompare(b.language);

/**
 * A package-level map of a repository from its file list: every folder that
 * holds a manifest (package.json, pyproject.toml, go.mod, Cargo.toml, ...) is a
 * package; each file belongs to its innermost package (the root `.` takes the
 * rest); languages come from extensions, entry points from well-known names.
 */
export function mapCodebase(files: readonly MappedFile[]): CodebaseMapBody {
  const unique = [...new Map(files.map((f) => [f.path, f])).values()].sort((a, b) => a.path.localeCompare(b.path));
  const manifests = unique.filter((f) => ecosystemOf(baseOf(f.path)) !== undefined).map((f) => f.path);
  const packageDirs = new Set(manifests.map(dirOf));
  const packages = new Map<string, MappedPackage & { counts: Map<string, LanguageCount> }>();
  const overall = new Map<string, LanguageCount>();
  let totalBytes = 0;
  for (const file of unique) {
    const dir = packageOf(dirOf(file.path), packageDirs);
    const pkg: MappedPackage & { counts: Map<string, LanguageCount> } = packages.get(dir) ?? {
      path: dir,
      ecosystems: [],
      manifests: [],
      entry_points: [],
      languages: [],
      file_count: 0,
      counts: new Map(),
    };
    packages.set(dir, pkg);
    const name = baseOf(file.path);
    const size = file.size ?? 0;
    totalBytes += size;
    pkg.file_count += 1;
    const ecosystem = ecosystemOf(name);
    if (ecosystem && dirOf(file.path) === dir) {
      pkg.manifests.push(file.path);
      if (!pkg.ecosystems.includes(ecosystem)) pkg.ecosystems.push(ecosystem);
    }
    if (ENTRY_POINTS.has(name) && depthBelow(dir, file.path) <= 2) pkg.entry_points.push(file.path);
    const language = LANGUAGES[extOf(name)];
    if (language) {
      tally(pkg.counts, language, size);
      tally(overall, language, size);
    }
  }
  const mapped = [...packages.values()]
    .map(({ counts, ...pkg }) => ({ ...pkg, ecosystems: pkg.ecosystems.sort(), languages: [...counts.values()].sort(byFiles) }))
    .sort((a, b) => (a.path === '.' ? -1 : b.path === '.' ? 1 : a.path.localeCompare(b.path)));
  return {
    file_count: unique.length,
    total_bytes: totalBytes,
    languages: [...overall.values()].sort(byFiles),
    manifests,
    entry_points: mapped.flatMap((p) => p.entry_points),
    packages: mapped,
  };
}
