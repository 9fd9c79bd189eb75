import { KNOWN_MALICIOUS, PkgEcosystem, POPULAR } from './pkg-guard.constants';

export interface PkgRule {
  /** A package name, a scope glob (`@acme/*`) or a prefix glob (`lodash.*`), optionally `@version` (exact). */
  pattern: string;
  action: 'allow' | 'deny';
  reason: string | null;
}

export interface PkgVerdict {
  allowed: boolean;
  verdict: 'allow' | 'deny';
  /** What decided: deny_rule, known_malicious, allow_rule, typosquat, default. */
  rule: 'deny_rule' | 'known_malicious' | 'allow_rule' | 'typosquat' | 'default';
  reason: string;
  matched: string | null;
}

/** How names compare: lower case, and `-`, `_`, `.` as one (PyPI normalises them so; squatters lean on it). */
export function normalisedName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** A rule's package part (`name`, `@scope/name`, globs) and its optional exact version. */
function splitPattern(pattern: string): { name: string; version: string | null } {
  const at = pattern.lastIndexOf('@');
  return at > 0 ? { name: pattern.slice(0, at), version: pattern.slice(at + 1) } : { name: pattern, version: null };
}

function matches(pattern: string, name: string, version: string | null): boolean {
  const rule = splitPattern(pattern);
  if (rule.version !== null && rule.version !== version) return false;
  const wanted = normalisedName(rule.name);
  const given = normalisedName(name);
  if (!wanted.includes('*')) return wanted === given;
  const regex = new RegExp(
    `^${wanted
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(given);
}

/** Damerau–Levenshtein distance (adjacent swaps count one), stopping once it passes `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The popular package a name imitates: one edit away, a homoglyph swap (l/I/1, 0/o, rn/m), or the same name with a popular one's separators changed. */
export function typosquatOf(ecosystem: PkgEcosystem, name: string): string | null {
  const given = normalisedName(name);
  const bare = given.replace(/^@[^/]+\//, '');
  const folded = (s: string) =>
    s
      .replace(/rn/g, 'm')
      .replace(/[1il|]/g, 'l')
      .replace(/0/g, 'o')
      .replace(/-/g, '');
  for (const popular of POPULAR[ecosystem]) {
    const target = normalisedName(popular);
    if (given === target) return null;
    if (bare.length >= 4 && editDistance(bare, target, 1) <= 1) return popular;
    if (folded(name.toLowerCase()) === folded(target) && name.toLowerCase() !== popular) return popular;
  }
  return null;
}

/**
 * The verdict on installing `name@version`: a deny rule of the workspace
 * first, then the known-malicious list, then an allow rule (which also
 * clears a name that merely resembles a popular one), then the typo-squat
 * check; anything else is allowed.
 */
export function checkPackage(ecosystem: PkgEcosystem, name: string, version: string | null, rules: readonly PkgRule[]): PkgVerdict {
  const deny = rules.find((r) => r.action === 'deny' && matches(r.pattern, name, version));
  if (deny) return { allowed: false, verdict: 'deny', rule: 'deny_rule', reason: deny.reason ?? `denied by the workspace rule ${deny.pattern}`, matched: deny.pattern };
  const bad = Object.entries(KNOWN_MALICIOUS[ecosystem]).find(([pkg]) => normalisedName(pkg) === normalisedName(name));
  if (bad && (bad[1].includes('*') || (version !== null && bad[1].includes(version)))) {
    const which = bad[1].includes('*') ? 'every release of this package is' : `release ${version} is`;
    return { allowed: false, verdict: 'deny', rule: 'known_malicious', reason: `${which} known to ship malicious code`, matched: bad[0] };
  }
  const allow = rules.find((r) => r.action === 'allow' && matches(r.pattern, name, version));
  if (allow) return { allowed: true, verdict: 'allow', rule: 'allow_rule', reason: allow.reason ?? `allowed by the workspace rule ${allow.pattern}`, matched: allow.pattern };
  const imitated = typosquatOf(ecosystem, name);
  if (imitated) {
    return {
      allowed: false,
      verdict: 'deny',
      rule: 'typosquat',
      reason: `"${name}" looks like a typo-squat of the popular package "${imitated}": check the name, or add an allow rule`,
      matched: imitated,
    };
  }
  const versionNote = bad ? ` (other releases of ${bad[0]} were malicious; this one is not listed)` : '';
  return { allowed: true, verdict: 'allow', rule: 'default', reason: `no rule denies it and it matches no known-malicious or typo-squat pattern${versionNote}`, matched: null };
}
