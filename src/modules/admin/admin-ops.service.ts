import { Inject, Injectable } from '@nestjs/common';
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitError, runGit } from '../../common/git/run-git';
import { RequestError } from '../../common/errors/request-error';
import { AppConfig } from '../../config/app-config';
import { AdminError } from './admin.errors';
import { APP_CONFIG } from '../../config/config.module';

export interface GitStatus {
  branch: string | null;
  /** Commits the checkout lacks from its upstream (null without an upstream). */
  behind: number | null;
  /** Commits of the checkout not on its upstream. */
  ahead: number | null;
  /** Why the figures are missing: not a checkout, no upstream, git failed. */
  error: string | null;
}

/** The instance's own operations: its checkout, a snapshot of its SQLite file. */
@Injectable()
export class AdminOps {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** GET /admin/git-status of the folder Baton runs from, against the upstream last fetched (no network call). */
  async gitStatus(path = process.cwd()): Promise<GitStatus> {
    let branch: string;
    try {
      branch = (await runGit(path, ['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
    } catch (error) {
      return { branch: null, behind: null, ahead: null, error: error instanceof GitError ? error.reason : 'git failed' };
    }
    try {
      const [ahead, behind] = (await runGit(path, ['rev-list', '--left-right', '--count', 'HEAD...@{upstream}'])).trim().split(/\s+/).map(Number);
      return { branch, behind, ahead, error: null };
    } catch (error) {
      return { branch, behind: null, ahead: null, error: error instanceof GitError ? error.reason : 'git failed' };
    }
  }

  /**
   * GET /admin/snapshot: a consistent copy of the SQLite file through SQLite's
   * online backup (writers go on meanwhile), written to a temporary folder and
   * handed to `send`, then removed. Only the self-hosted SQLite file has one.
   */
  async snapshot(send: (path: string, name: string) => Promise<void>): Promise<void> {
    if (this.config.isHosted) throw RequestError.notFound('snapshots are for a self-hosted instance on SQLite; hosted data is backed up with Postgres');
    if (this.config.databaseType !== 'sqlite') throw AdminError.snapshotOnPostgres();
    const folder = await mkdtemp(join(tmpdir(), 'baton-snapshot-'));
    const name = `baton-${new Date().toISOString().replace(/[:.]/g, '-')}.db`;
    const source = new Database(this.config.sqlitePath, { readonly: true, fileMustExist: true });
    try {
      await source.backup(join(folder, name));
      await send(join(folder, name), name);
    } finally {
      source.close();
      await rm(folder, { recursive: true, force: true });
    }
  }
}
