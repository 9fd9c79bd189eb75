import { Injectable } from '@nestjs/common';
import { CodehostClient } from './codehost.client';
import { CodehostError, CodehostErrorCode } from './codehost.errors';
import { CodehostLinks } from './codehost-links.service';
import { repoPath } from './repo-path.util';

/** A commit of the project's repository as the code host reports it, with the files it changed. */
export interface CodehostCommit {
  sha: string;
  committed_at: string;
  subject: string;
  body: string;
  files: string[];
}

/** At most this many commits are read one by one for their files (one request each). */
export const COMMIT_FILES_MAX = 20;

interface CommitJson {
  sha: string;
  commit?: { message?: string; committer?: { date?: string }; author?: { date?: string } };
  parents?: unknown[];
  files?: { filename?: string }[];
}

/**
 * Recent commits of a project's connected repository through the code-host
 * client: what a local `git log` gives self-hosted, for hosted projects
 * (reconcile, the handoff's touches_files). Null when the project has no
 * connected repository; any other failure is the code host's error.
 */
@Injectable()
export class CodehostCommits {
  constructor(
    private readonly links: CodehostLinks,
    private readonly client: CodehostClient,
  ) {}

  /**
   * The newest `limit` commits of the default branch, each with its changed
   * files (the first COMMIT_FILES_MAX). Merges are left out, or with `merges`
   * counted with no files, as `git log --name-only` shows them.
   */
  async recent(projectId: string, limit: number, { merges = false } = {}): Promise<CodehostCommit[] | null> {
    let access;
    try {
      access = await this.links.access(projectId);
    } catch (error) {
      if (error instanceof CodehostError && error.code === CodehostErrorCode.NotConnected) return null;
      throw error;
    }
    const where = `${access.owner}/${access.name}`;
    const listed = await this.client.request<CommitJson[]>(access.token, {
      path: repoPath(access, '/commits'),
      query: { per_page: Math.min(limit, 100) },
      what: `commits of ${where}`,
    });
    if (!Array.isArray(listed.body)) throw CodehostError.unavailable(`the code host answered something other than a list for commits of ${where}`);
    const isMerge = (c: CommitJson) => (c.parents?.length ?? 0) > 1;
    const commits = listed.body.filter((c) => merges || !isMerge(c)).slice(0, limit);
    return Promise.all(
      commits.map(async (c, i) => {
        const files =
          i < COMMIT_FILES_MAX && !isMerge(c)
            ? (
                (await this.client.request<CommitJson>(access.token, { path: repoPath(access, `/commits/${encodeURIComponent(c.sha)}`), what: `commit ${c.sha} of ${where}` })).body
                  .files ?? []
              )
                .map((f) => f.filename)
                .filter((f): f is string => typeof f === 'string')
            : [];
        const message = c.commit?.message ?? '';
        const newline = message.indexOf('\n');
        const date = c.commit?.committer?.date ?? c.commit?.author?.date;
        return {
          sha: c.sha,
          committed_at: date ? new Date(date).toISOString() : new Date(0).toISOString(),
          subject: newline === -1 ? message : message.slice(0, newline),
          body: newline === -1 ? '' : message.slice(newline + 1).trim(),
          files,
        };
      }),
    );
  }
}
