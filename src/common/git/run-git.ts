import { execFile } from 'node:child_process';

export interface GitRunOptions {
  /** The process is killed after this long (default 10 s): a repository on a hung mount must not hold a request. */
  timeoutMs?: number;
  /** Standard output above this many bytes kills the process (default 4 MiB). */
  maxBytes?: number;
}

/** git could not answer: not a repository, no commits, git missing, too slow, or too much output. */
export class GitError extends Error {
  constructor(
    /** The first line git (or the process launcher) gave as the reason, for the caller's own message. */
    readonly reason: string,
    options: { cause: unknown },
  ) {
    super(`git failed: ${reason}`, options);
    this.name = 'GitError';
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Runs `git -C repoPath -c core.quotepath=off ...args` and answers its
 * standard output. No shell is involved, so nothing in `repoPath` or `args` is
 * interpreted. The environment is fixed: only PATH and HOME pass from Baton's,
 * so a GIT_DIR or GIT_CONFIG_* of the process cannot point git elsewhere, and
 * git never waits for credentials on a terminal. Paths print unquoted, as
 * they are in the repository. A failure rejects with a `GitError`.
 */
export function runGit(repoPath: string, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-C', repoPath, '-c', 'core.quotepath=off', ...args],
      {
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxBuffer: options.maxBytes ?? DEFAULT_MAX_BYTES,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', GIT_TERMINAL_PROMPT: '0' },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const reason = (stderr || error.message).split('\n').find((line) => line.trim() !== '') ?? 'git failed';
        reject(new GitError(reason.trim(), { cause: error }));
      },
    );
  });
}
