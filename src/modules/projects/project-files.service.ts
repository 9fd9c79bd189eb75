import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { forDialect, fromSqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { InstructionFilesService, RepositorySectionResult } from './instruction-files.service';
import { replaceSection } from './md-section.util';
import { PROJECT_FILE_MAX_CHARS, PROJECT_FILES_MAX, README_FILENAME } from './project-extras.constants';
import { ProjectExtrasError } from './project-extras.errors';
import { ProjectFile } from './project-file.entity';
import { ProjectFileView, toProjectFileView } from './project-file.view';
import { lockProject } from './project-lock.util';
import { isInstructionFile } from './repo-instruction-file.util';
import { requireProject } from './require-project.util';

export interface ProjectFileSummary {
  filename: string;
  size: number;
  updated_at: string;
}

export interface StoredSectionResult {
  /** The file kept in Baton's database (no local checkout, or not an instruction file). */
  location: 'baton';
  file: ProjectFileView;
  section: string;
  section_created: boolean;
  file_created: boolean;
}

export type SectionUpdateResult = StoredSectionResult | RepositorySectionResult;

export interface SectionOptions {
  create?: boolean;
  force?: boolean;
  session_id?: string;
}

/**
 * A project's editable markdown files, stored in the tenant's database (never
 * on the server's disk, so a file name cannot reach outside the project).
 */
@Injectable()
export class ProjectFilesService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly settings: ProjectSettingsService,
    private readonly instructions: InstructionFilesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Every file of the project, by name, without content. */
  async list(projectId: string): Promise<ProjectFileSummary[]> {
    const size = forDialect(this.db.dialect, { postgres: 'octet_length(f.content)', sqlite: 'length(CAST(f.content AS BLOB))' });
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const rows: { filename: string; size: number | string; updated_at: Date | string }[] = await m
        .createQueryBuilder(ProjectFile, 'f')
        .select('f.filename', 'filename')
        .addSelect(size, 'size')
        .addSelect('f.updated_at', 'updated_at')
        .where('f.project_id = :projectId', { projectId })
        .orderBy('f.filename_key', 'ASC')
        .getRawMany();
      return rows.map((r) => ({ filename: r.filename, size: Number(r.size), updated_at: fromSqlTimestamp(r.updated_at).toISOString() }));
    });
  }

  async read(projectId: string, filename: string): Promise<ProjectFileView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const file = await this.find(m, projectId, filename);
      if (!file) throw ProjectExtrasError.fileNotFound(filename);
      return toProjectFileView(file);
    });
  }

  /** Creates or replaces a file; `created` says which. */
  async write(projectId: string, filename: string, content: string): Promise<{ file: ProjectFileView; created: boolean }> {
    return this.db.transaction(async (m) => {
      await lockProject(m, projectId);
      const { file, created } = await this.save(m, projectId, filename, content, await this.find(m, projectId, filename));
      return { file: toProjectFileView(file), created };
    });
  }

  /**
   * Replaces one named section of a file (see md-section.util.ts). README files
   * are refused: people edit them. With `create`, a missing section is
   * appended and a missing file is created. An instruction file of a project
   * with a local checkout (self-hosted, executor_config.repo_path) is the
   * committed file on disk, edited through a review (InstructionFilesService).
   */
  async updateSection(projectId: string, filename: string, section: string, text: string, options: SectionOptions = {}): Promise<SectionUpdateResult> {
    if (README_FILENAME.test(filename)) throw ProjectExtrasError.readmeProtected(filename);
    if (this.config.isHosted && isInstructionFile(filename)) {
      await this.db.read((m) => requireProject(m, projectId));
      const remote = await this.instructions.editRemote({
        projectId,
        filename,
        section,
        text,
        create: options.create === true,
        force: options.force === true,
        sessionId: options.session_id,
      });
      if (remote) return remote;
    }
    const repoPath = await this.repositoryOf(projectId, filename);
    if (repoPath) {
      return this.instructions.edit({
        projectId,
        repoPath,
        filename,
        section,
        text,
        create: options.create === true,
        force: options.force === true,
        sessionId: options.session_id,
      });
    }
    return this.db.transaction(async (m) => {
      await lockProject(m, projectId);
      const existing = await this.find(m, projectId, filename);
      if (!existing && !options.create) throw ProjectExtrasError.fileNotFound(filename);
      const next = replaceSection(filename, existing?.content ?? '', section, text, options.create === true);
      const { file, created } = await this.save(m, projectId, existing?.filename ?? filename, next.content, existing);
      return { location: 'baton' as const, file: toProjectFileView(file), section, section_created: next.created, file_created: created };
    });
  }

  /** The checkout an instruction file of the project lives in, when the server can reach it (self-hosted with repo_path). */
  private async repositoryOf(projectId: string, filename: string): Promise<string | null> {
    if (this.config.isHosted || !isInstructionFile(filename)) return null;
    return this.db.read(async (m) => {
      await requireProject(m, projectId);
      return (await this.settings.read(m, projectId)).executor_config.repo_path ?? null;
    });
  }

  private async save(m: EntityManager, projectId: string, filename: string, content: string, existing: ProjectFile | null) {
    if (content.length > PROJECT_FILE_MAX_CHARS) throw ProjectExtrasError.fileTooLarge(PROJECT_FILE_MAX_CHARS);
    const now = this.clock.now();
    if (existing) {
      await m.update(ProjectFile, { id: existing.id }, { content, updated_at: now });
      return { file: { ...existing, content, updated_at: now }, created: false };
    }
    if ((await m.count(ProjectFile, { where: { project_id: projectId } })) >= PROJECT_FILES_MAX) throw ProjectExtrasError.tooManyFiles(PROJECT_FILES_MAX);
    const file: ProjectFile = { id: randomUUID(), project_id: projectId, filename, filename_key: filename.toLowerCase(), content, created_at: now, updated_at: now };
    await m.insert(ProjectFile, file);
    return { file, created: true };
  }

  private find(m: EntityManager, projectId: string, filename: string): Promise<ProjectFile | null> {
    return m.findOneBy(ProjectFile, { project_id: projectId, filename_key: filename.toLowerCase() });
  }
}
