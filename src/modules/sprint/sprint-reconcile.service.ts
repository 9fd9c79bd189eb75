import { Inject, Injectable } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { promisify } from 'node:util';
import { In } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { SprintDb } from './sprint-db.service';
import { SprintItem } from './sprint-item.entity';
import { significantWords } from './sprint-text.util';
import { ACTIVE_STATUSES, DUPLICATE_OVERLAP } from './sprint.constants';
import { SprintError } from './sprint.errors';

const run = promisify(execFile);
const GIT_TIMEOUT_MS = 10_000;

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
  repo_path: string;
  commits_scanned: number;
  items_checked: number;
  /** Active items that recent commits seem to have done: check them, then complete them. Nothing is changed here. */
  matches: ReconcileMatch[];
}

/**
 * GET /projects/{id}/reconcile: pending work against the project's recent
 * commits (self-hosted, executor_config.repo_path). A commit matches an item
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
  ) {}

  async reconcile(projectId: string, limit = 50): Promise<ReconcileReport> {
    const { repoPath, items } = await this.sprint.run(projectId, async (tx) => {
      // The project is checked first: another tenant's id is not found, whatever the mode.
      if (this.config.isHosted) throw SprintError.reconcileUnavailable();
      return {
        repoPath: (await this.settings.read(tx.m, projectId)).executor_config.repo_path,
        items: await tx.m.find(SprintItem, { where: { project_id: projectId, status: In([...ACTIVE_STATUSES]) }, order: { priority_rank: 'ASC', added_at: 'ASC' } }),
      };
    });
    if (!repoPath) throw SprintError.noRepository();
    if (!isAbsolute(repoPath)) throw SprintError.repositoryUnavailable('executor_config.repo_path must be an absolute path');
    const commits = await readCommits(repoPath, limit);
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
    return { repo_path: repoPath, commits_scanned: commits.length, items_checked: items.length, matches };
  }
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
    ({ stdout } = await run('git', ['-C', repoPath, '-c', 'core.quotepath=off', 'log', `-n${limit}`, '--no-merges', '--name-only', '--format=%x1e%H%x1f%cI%x1f%s%x1f%b%x1f'], {
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, GIT_TERMINAL_PROMPT: '0' },
    }));
  } catch (error) {
    const reason = ((error as { stderr?: string }).stderr || (error as Error).message).split('\n')[0].trim();
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
