import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { UpdateWorkspaceSettingsDto } from './dto/update-workspace-settings.dto';
import { WorkspaceSettingsRow } from './workspace-settings.entity';
import { DEFAULT_WORKSPACE_SETTINGS, WORKSPACE_SETTINGS_ID, WorkspaceSettings } from './workspace-layer.constants';

/** The workspace settings singleton: defaults until first changed; a PATCH changes only the fields it names. */
@Injectable()
export class WorkspaceSettingsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  get(): Promise<WorkspaceSettings> {
    return this.db.transaction((m) => this.read(m));
  }

  /** The settings inside a caller's transaction. */
  async read(m: EntityManager): Promise<WorkspaceSettings> {
    const row = await m.findOneBy(WorkspaceSettingsRow, { id: WORKSPACE_SETTINGS_ID });
    if (!row) return { ...DEFAULT_WORKSPACE_SETTINGS };
    return { name: row.name, timezone: row.timezone, context_notes_limit: row.context_notes_limit, context_decisions_limit: row.context_decisions_limit };
  }

  async update(input: UpdateWorkspaceSettingsDto): Promise<WorkspaceSettings> {
    return this.db.transaction(async (m) => {
      const next = await this.read(m);
      if (input.name !== undefined) next.name = input.name;
      if (input.timezone !== undefined) next.timezone = input.timezone;
      if (input.context_notes_limit !== undefined) next.context_notes_limit = input.context_notes_limit;
      if (input.context_decisions_limit !== undefined) next.context_decisions_limit = input.context_decisions_limit;
      await m.upsert(WorkspaceSettingsRow, { id: WORKSPACE_SETTINGS_ID, ...next, updated_at: this.clock.now() }, ['id']);
      return next;
    });
  }
}
