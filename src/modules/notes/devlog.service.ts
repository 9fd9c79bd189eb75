import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { requireProject } from '../projects/require-project.util';
import { DEFAULT_PAGE_SIZE, PageQueryDto } from '../tasks/dto/page-query.dto';
import { requireSessionOf } from '../tasks/session-of-project.util';
import { DevlogEntry } from './devlog-entry.entity';
import { DevlogEntryView, toDevlogEntryView } from './devlog-entry.view';
import { AddDevlogDto } from './dto/add-devlog.dto';

/** The development log of a project: append-only, newest first. */
@Injectable()
export class DevlogService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  async append(projectId: string, input: AddDevlogDto): Promise<DevlogEntryView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      if (input.session_id) await requireSessionOf(m, input.session_id, projectId);
      const entry: DevlogEntry = {
        id: randomUUID(),
        project_id: projectId,
        entry: input.entry,
        human_id: input.human_id ?? null,
        session_id: input.session_id ?? null,
        created_at: this.clock.now(),
      };
      await m.insert(DevlogEntry, entry);
      return toDevlogEntryView(entry);
    });
  }

  async list(projectId: string, page: PageQueryDto): Promise<DevlogEntryView[]> {
    const entries = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return m.find(DevlogEntry, {
        where: { project_id: projectId },
        order: { created_at: 'DESC', id: 'DESC' },
        take: page.limit ?? DEFAULT_PAGE_SIZE,
        skip: page.offset ?? 0,
      });
    });
    return entries.map(toDevlogEntryView);
  }
}
