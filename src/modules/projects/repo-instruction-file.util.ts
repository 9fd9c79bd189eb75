import { createHash, randomUUID } from 'node:crypto';
import { lstat, open, readdir, readFile, realpath, rename, rm } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { INSTRUCTION_FILENAMES } from './project-extras.constants';
import { ProjectExtrasError } from './project-extras.errors';

/** Whether `filename` names one of the assistants' instruction files (CLAUDE.md, AGENTS.md, GEMINI.md), in any case. */
export function isInstructionFile(filename: string): boolean {
  return INSTRUCTION_FILENAMES.some((name) => name.toLowerCase() === filename.toLowerCase());
}

/** A file's content and its SHA-256 (`absent` for a file that does not exist yet). */
export interface RepoFileState {
  /** Where the file is, relative to the repository root (its name as spelled on disk). */
  name: string;
  /** The real path that is read and replaced. */
  path: string;
  content: string | null;
  sha256: string;
}

export const ABSENT = 'absent';

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The instruction file `filename` at the root of the checkout `repoPath`, never
 * outside it: the file (or a symlink in its place) must resolve to a regular
 * file inside the repository's real root, else OUTSIDE_REPOSITORY. The file's
 * spelling on disk wins (`claude.md` finds `CLAUDE.md`).
 */
export async function readRepoFile(repoPath: string, filename: string): Promise<RepoFileState> {
  let root: string;
  try {
    root = await realpath(repoPath);
    if (!(await lstat(root)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw ProjectExtrasError.repositoryUnavailable('executor_config.repo_path is not a readable directory');
  }
  const onDisk = (await readdir(root)).find((entry) => entry.toLowerCase() === filename.toLowerCase()) ?? filename;
  const candidate = join(root, onDisk);
  let real: string;
  try {
    real = await realpath(candidate);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // A dangling symlink is not a missing file: where it points is not ours to create.
    if (
      await lstat(candidate).then(
        () => true,
        () => false,
      )
    )
      throw ProjectExtrasError.outsideRepository(onDisk);
    return { name: onDisk, path: candidate, content: null, sha256: ABSENT };
  }
  if (!real.startsWith(root + sep) || !(await lstat(real)).isFile()) throw ProjectExtrasError.outsideRepository(onDisk);
  const content = await readFile(real, 'utf8');
  return { name: onDisk, path: real, content, sha256: sha256(content) };
}

/**
 * Replaces the file at `path` with `content` atomically: a temporary file
 * beside it is written and flushed, then renamed over it, so a reader sees
 * the old file or the new one, never half of it.
 */
export async function writeAtomically(path: string, content: string): Promise<void> {
  const temporary = join(dirname(path), `.baton-${randomUUID()}.tmp`);
  const handle = await open(temporary, 'wx', 0o644);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * The change as a person reads it in the review: one unified-diff hunk from
 * the first changed line to the last (an edit of one section changes one run
 * of lines), with the file's name and line numbers.
 */
export function fileDiff(name: string, before: string | null, after: string): string {
  const a = before === null || before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  return [
    `--- ${before === null ? '/dev/null' : `a/${name}`}`,
    `+++ b/${name}`,
    `@@ -${head + 1},${removed.length} +${head + 1},${added.length} @@`,
    ...removed.map((l) => `-${l}`),
    ...added.map((l) => `+${l}`),
  ].join('\n');
}
