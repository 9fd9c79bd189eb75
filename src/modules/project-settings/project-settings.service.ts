import { Injectable } from '@nestjs/common';
import { instanceToPlain } from 'class-transformer';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { requireProject } from '../projects/require-project.util';
import { UpdateProjectSettingsDto } from './dto/update-project-settings.dto';
import { DEFAULT_PROJECT_SETTINGS, ExecutionMode, ProjectSettings } from './project-settings.constants';
import { ProjectSettingsRow } from './project-settings.entity';

/** The per-project settings every module reads (max_pinned_decisions, hitl_auto_answer, ...). */
@Injectable()
export class ProjectSettingsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  async get(projectId: string): Promise<ProjectSettings> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return this.read(m, projectId);
    });
  }

  /** The settings inside a caller's transaction (no project check: the caller has done it). */
  async read(m: EntityManager, projectId: string): Promise<ProjectSettings> {
    const row = await m.findOneBy(ProjectSettingsRow, { project_id: projectId });
    return row ? fromRow(row) : structuredClone(DEFAULT_PROJECT_SETTINGS);
  }

  async update(projectId: string, input: UpdateProjectSettingsDto): Promise<ProjectSettings> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const current = await this.read(m, projectId);
      const patch = instanceToPlain(input) as Partial<ProjectSettings>;
      const next: ProjectSettings = { ...current };
      for (const key of Object.keys(DEFAULT_PROJECT_SETTINGS) as (keyof ProjectSettings)[]) {
        if (patch[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = patch[key];
      }
      await m.upsert(
        ProjectSettingsRow,
        { project_id: projectId, ...next, executor_config: JSON.stringify(next.executor_config), updated_at: this.clock.now() },
        ['project_id'],
      );
      return next;
    });
  }
}

function fromRow(row: ProjectSettingsRow): ProjectSettings {
  return {
    max_pinned_decisions: row.max_pinned_decisions,
    hitl_auto_answer: Boolean(row.hitl_auto_answer),
    auto_worktrees: Boolean(row.auto_worktrees),
    require_merge_approval: Boolean(row.require_merge_approval),
    code_intel_enabled: Boolean(row.code_intel_enabled),
    execution_mode: row.execution_mode as ExecutionMode,
    executor_config: JSON.parse(row.executor_config) as ProjectSettings['executor_config'],
  };
}
