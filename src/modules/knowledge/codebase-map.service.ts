import { Injectable } from '@nestjs/common';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { requireProject } from '../projects/require-project.util';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { CodebaseMap } from './codebase-map.entity';
import { KnowledgeError } from './knowledge.errors';
import { CodebaseMapBody, mapCodebase } from './codebase-map.util';
import { CodebaseMapDto } from './dto/codebase-map.dto';

export interface CodebaseMapView extends CodebaseMapBody {
  project_id: string;
  created_at: string;
}

/** Package-level maps of a project's repository: each new map replaces the project's latest. */
@Injectable()
export class CodebaseMapService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly settings: ProjectSettingsService,
  ) {}

  async record(projectId: string, input: CodebaseMapDto): Promise<CodebaseMapView> {
    const body = mapCodebase(input.files);
    const row: CodebaseMap = { project_id: projectId, map: JSON.stringify(body), created_at: this.clock.now() };
    await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      if (!(await this.settings.read(m, projectId)).code_intel_enabled) throw KnowledgeError.codeIntelDisabled(projectId);
      await m.upsert(CodebaseMap, row, ['project_id']);
    });
    return { project_id: projectId, ...body, created_at: row.created_at.toISOString() };
  }
}
