/** A repository's API path: `/repos/{owner}/{name}` followed by `rest`, every part escaped. */
export function repoPath(access: { owner: string; name: string }, rest = ''): string {
  return `/repos/${encodeURIComponent(access.owner)}/${encodeURIComponent(access.name)}${rest}`;
}

/** A file path inside the repository as the contents API takes it: each segment escaped, the slashes kept. */
export function contentsPath(access: { owner: string; name: string }, path: string): string {
  return repoPath(access, `/contents/${path.split('/').map(encodeURIComponent).join('/')}`);
}
