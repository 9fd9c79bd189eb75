import { Inject, Injectable } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TenantDb } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { CodehostCommits } from '../codehost/codehost-commits.service';
import { CodehostError } from '../codehost/codehost.errors';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { requireProject } from '../projects/require-project.util';
import { changedFilesInLastCommits, ChangedFiles } from './git-changes.util';
import { CHANGED_FILES_MAX, HandoffMode } from './handoff.constants';

/**
 * What a handoff reads from and writes to the disk of the machine Baton runs
 * on: the project's repository and the handoff document. Self-hosted only:
 * hosted, the server's disk is no place for tenant documents, and neither its
 * paths nor a repository path a tenant names are the server's to open.
 */
@Injectable()
export class HandoffFiles {
  constructor(
    private readonly db: TenantDb,
    private readonly settings: ProjectSettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly codehost: CodehostCommits,
  ) {}

  /**
   * Files changed in the last three commits: of the local checkout when the
   * project names one and Baton runs on that machine, else of the project's
   * connected code-host repository (hosted), else none.
   */
  async recentChanges(projectId: string): Promise<ChangedFiles> {
    const repoPath = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return (await this.settings.read(m, projectId)).executor_config.repo_path;
    });
    if (repoPath && !this.config.isHosted) return changedFilesInLastCommits(repoPath);
    try {
      const commits = await this.codehost.recent(projectId, 3, { merges: true });
      if (!commits) return { files: [] };
      return { files: [...new Set(commits.flatMap((c) => c.files))].sort().slice(0, CHANGED_FILES_MAX) };
    } catch (error) {
      // A handoff is still worth having without the list.
      if (error instanceof CodehostError) return { files: [], warning: `could not read recent commits from the code host: ${error.detail}` };
      throw error;
    }
  }

  /** The document's file name: sorts by time, says its mode, and cannot collide with another handoff's. */
  fileName(generatedAt: Date, mode: HandoffMode, handoffId: string): string {
    return `${generatedAt.toISOString().replace(/[:.]/g, '-')}-${mode}-${handoffId.slice(0, 8)}.md`;
  }

  /** Writes the document under the data directory and answers its path; hosted, only the name to save it under. */
  async store(projectId: string, fileName: string, content: string): Promise<string> {
    if (this.config.isHosted) return `.baton/handoffs/${fileName}`;
    const dir = join(this.config.dataDir, 'handoffs', projectId);
    await mkdir(dir, { recursive: true });
    const path = join(dir, fileName);
    await writeFile(path, content, { encoding: 'utf8', flag: 'wx' });
    return path;
  }
}
