import { RequestError } from '../../common/errors/request-error';

/**
 * The key a file is locked under: forward slashes, no `./` segments, no
 * repeated or trailing slashes. `./src//a.ts` and `src/a.ts` are one file.
 */
export function normalizeFilePath(raw: string): string {
  const parts = raw.replace(/\\/g, '/').split('/');
  const kept = parts.filter((part, i) => part !== '.' && (part !== '' || (i === 0 && raw.startsWith('/'))));
  const path = kept.join('/') || (raw.startsWith('/') ? '/' : '');
  if (path === '' || path === '/') throw RequestError.invalidInput('file_path must name a file');
  return path;
}
