import { Inject, Injectable } from '@nestjs/common';
import { isAbsolute } from 'node:path';
import { In } from 'typeorm';
import { GitError, runGit } from '../../common/git/run-git';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { CodehostCommits } from '../codehost/codehost-commits.service';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { SprintDb } from './sprint-db.service';
import { SprintItem } from './sprint-item.entity';
import { significantWords } from './sprint-text.util';
import { ACTIVE_STATUSES, DUPLICATE_OVERLAP } from './sprint.constants';
import { SprintError } from './sprint.errors';

/** A long history of large commits stays within this. */
const GIT_LOG_MAX_BYTES = 16 * 1024 * 1024;

interface Commit {
  sha: string;
  committed_at: string;
  subject: string;
  body: string;
  files: string[];
}

export interface ReconcileMatch {
  item_id: string;
  slug: string;
  title: string;
  status: string;
  commits: { sha: string; subject: string; committed_at: string; reasons: string[] }[];
}

export interface ReconcileReport {
  /** Where the commits were read: the local checkout (self-hosted) or the connected repository through the code host. */
  source: 'git' | 'codehost';
  /** The local checkout read (null when read through the code host). */
  repo_path: string | null;
  commits_scanned: number;
  items_checked: number;
  /** Active items that recent commits seem to have done: check them, then complete them. Nothing is changed here. */
  matches: ReconcileMatch[];
}

/**
 * GET /projects/{id}/reconcile: pending work against the project's recent
 * commits: the local checkout's (self-hosted, executor_config.repo_path), or
 * the connected repository's through the code-host client (hosted, or
 * self-hosted without a checkout). A commit matches an item
 * when it names its slug or nickname, when its subject shares most words with
 * the title (60 % of its words), or when it changed a file the item
 * declares. Read-only: a person or an agent decides what to complete.
 */
@Injectable()
export class SprintReconcile {
  constructor(
    private readonly sprint: SprintDb,
    private readonly settings: ProjectSettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly codehost: CodehostCommits,
  ) {}

  async reconcile(projectId: string, limit = 50): Promise<ReconcileReport> {
    const { repoPath, items } = await this.sprint.run(projectId, async (tx) => ({
      // The server's disk is no tenant's: hosted, a repo_path is never opened.
      repoPath: this.config.isHosted ? undefined : (await this.settings.read(tx.m, projectId)).executor_config.repo_path,
      items: await tx.m.find(SprintItem, { where: { project_id: projectId, status: In([...ACTIVE_STATUSES]) }, order: { priority_rank: 'ASC', added_at: 'ASC' } }),
    }));
    if (!repoPath) {
      const commits = await this.codehost.recent(projectId, limit);
      if (!commits) throw this.config.isHosted ? SprintError.reconcileUnavailable() : SprintError.noRepository();
      return { source: 'codehost', repo_path: null, ...matchCommits(items, commits) };
    }
    if (!isAbsolute(repoPath)) throw SprintError.repositoryUnavailable('executor_config.repo_path must be an absolute path');
    return { source: 'git', repo_path: repoPath, ...matchCommits(items, await readCommits(repoPath, limit)) };
  }
}

function matchCommits(items: SprintItem[], commits: Commit[]): Omit<ReconcileReport, 'source' | 'repo_path'> {
  const matches: ReconcileMatch[] = [];
  for (const item of items) {
    const found = commits.map((c) => ({ commit: c, reasons: reasonsFor(item, c) })).filter((x) => x.reasons.length > 0);
    if (found.length === 0) continue;
    matches.push({
      item_id: item.id,
      slug: item.slug,
      title: item.title,
      status: item.status,
      commits: found.map(({ commit, reasons }) => ({ sha: commit.sha, subject: commit.subject, committed_at: commit.committed_at, reasons })),
    });
  }
  return { commits_scanned: commits.length, items_checked: items.length, matches };
}

function reasonsFor(item: SprintItem, commit: Commit): string[] {
  const reasons: string[] = [];
  const message = `${commit.subject}\n${commit.body}`.toLowerCase();
  const names = (id: string) => new RegExp(`(^|[^a-z0-9-])${id.replace(/-/g, '\\-')}($|[^a-z0-9-])`).test(message);
  if (names(item.slug) || names(item.nickname)) reasons.push('names the item');
  // Most of the title's words are in the commit message (the message may say more than the title).
  const titleWords = new Set(significantWords(item.title));
  const messageWords = new Set(significantWords(message));
  let covered = 0;
  for (const w of titleWords) if (messageWords.has(w)) covered++;
  if (titleWords.size > 0 && covered / titleWords.size >= DUPLICATE_OVERLAP) reasons.push('message matches the title');
  const declared = (JSON.parse(item.touches_resources) as string[]).filter((r) => r.startsWith('file:')).map((r) => r.slice(5));
  if (declared.length > 0 && commit.files.some((f) => declared.includes(f))) reasons.push('changed a file the item declares');
  return reasons;
}

async function readCommits(repoPath: string, limit: number): Promise<Commit[]> {
  let stdout: string;
  try {
    stdout = await runGit(repoPath, ['log', `-n${limit}`, '--no-merges', '--name-only', '--format=%x1e%H%x1f%cI%x1f%s%x1f%b%x1f'], { maxBytes: GIT_LOG_MAX_BYTES });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    const { reason } = error;
    throw SprintError.repositoryUnavailable(/does not have any commits/.test(reason) ? 'the repository has no commits yet' : reason.replace(repoPath, '<repo_path>'));
  }
  return stdout
    .split('\x1e')
    .filter((chunk) => chunk.trim())
    .map((chunk) => {
      const [sha, committedAt, subject, body, rest] = chunk.split('\x1f');
      return {
        sha,
        committed_at: new Date(committedAt).toISOString(),
        subject,
        body: body.trim(),
        files: (rest ?? '')
          .split('\n')
          .map((f) => f.trim())
          .filter(Boolean),
      };
    });
}
