/**
 * The `rel="next"` address of a `Link` header, kept only when it is on the API's own origin and
 * path: the token goes with the next request, so a link elsewhere is not followed.
 */
export function nextPageUrl(link: string | null, apiBase: string): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]+)>\s*;(.*)$/.exec(part);
    const rels = /rel="?([^";]*)"?/.exec(match?.[2] ?? '')?.[1].split(/\s+/) ?? [];
    if (!match || !rels.includes('next')) continue;
    let next: URL;
    try {
      next = new URL(match[1], apiBase);
    } catch {
      return undefined;
    }
    const base = new URL(apiBase);
    const basePath = base.pathname.replace(/\/$/, '');
    const samePlace = next.origin === base.origin && (next.pathname === basePath || next.pathname.startsWith(`${basePath}/`));
    return samePlace ? next.toString() : undefined;
  }
  return undefined;
}
