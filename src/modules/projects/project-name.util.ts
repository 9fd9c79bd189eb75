/**
 * How two project names are compared: Unicode-normalised, case-folded, inner
 * whitespace collapsed. "My  Project" and "my project" are the same project.
 */
export function projectNameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The name as stored: trimmed, normalised, inner whitespace collapsed. */
export function cleanProjectName(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ');
}
