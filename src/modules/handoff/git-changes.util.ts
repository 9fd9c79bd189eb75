import { execFile } from 'node:child_process';
import { CHANGED_FILES_MAX } from './handoff.constants';

export interface ChangedFiles {
  files: string[];
  /** Why no files could be read (not a repository, git missing, ...), for the handoff's reader. */
  warning?: string;
}

const GIT_TIMEOUT_MS = 10_000;

/**
 * Repository-relative paths of the files changed in the last three commits of
 * the checkout at `repoPath` (self-hosted only: the path is on this machine).
 * git runs without a shell, with a deadline; a failure is reported, not thrown,
 * because a handoff is still worth having without the list.
 */
export function changedFilesInLastCommits(repoPath: string): Promise<ChangedFiles> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', repoPath, '-c', 'core.quotepath=off', 'log', '-3', '--no-color', '--name-only', '--pretty=format:'],
      { timeout: GIT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout, stderr) => {
        if (error) {
          const reason = (stderr || error.message).split('\n').find((l) => l.trim() !== '') ?? 'git failed';
          resolve({ files: [], warning: `could not read recent commits of ${repoPath}: ${reason.trim()}` });
          return;
        }
        const files = [
          ...new Set(
            stdout
              .split('\n')
              .map((l) => l.trim())
              .filter((l) => l !== ''),
          ),
        ].sort();
        resolve({ files: files.slice(0, CHANGED_FILES_MAX) });
      },
    );
  });
}
