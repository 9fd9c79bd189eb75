import { GitError, runGit } from '../../common/git/run-git';
import { CHANGED_FILES_MAX } from './handoff.constants';

export interface ChangedFiles {
  files: string[];
  /** Why no files could be read (not a repository, git missing, ...), for the handoff's reader. */
  warning?: string;
}

/**
 * Repository-relative paths of the files changed in the last three commits of
 * the checkout at `repoPath` (self-hosted only: the path is on this machine).
 * A failure is reported, not thrown, because a handoff is still worth having
 * without the list.
 */
export async function changedFilesInLastCommits(repoPath: string): Promise<ChangedFiles> {
  let stdout: string;
  try {
    stdout = await runGit(repoPath, ['log', '-3', '--no-color', '--name-only', '--pretty=format:']);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return { files: [], warning: `could not read recent commits of ${repoPath}: ${error.reason}` };
  }
  const files = [
    ...new Set(
      stdout
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== ''),
    ),
  ].sort();
  return { files: files.slice(0, CHANGED_FILES_MAX) };
}
