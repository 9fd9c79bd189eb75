import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { CreateWorkspaceItemDto } from './dto/create-workspace-item.dto';
import { UpdateWorkspaceItemDto } from './dto/update-workspace-item.dto';
import { WorkspaceItemsQueryDto } from './dto/workspace-items-query.dto';
import { WorkspaceSprintItem } from './workspace-sprint-item.entity';
import { toWorkspaceSprintItemView, WorkspaceSprintItemView } from './workspace-sprint-item.view';
import { WorkspaceLayerError } from './workspace-layer.errors';

export interface WorkspaceItemGroup {
  /** null: items in no group. */
  group: string | null;
  items: WorkspaceSprintItemView[];
}

/** Cross-project checklist items of the workspace, listed by group (swimlane). */
@Injectable()
export class WorkspaceSprintItemsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  /** Groups by name (any case order), items without a group last; items oldest first within a group. */
  async list(query: WorkspaceItemsQueryDto): Promise<{ groups: WorkspaceItemGroup[]; total: number }> {
    const status = query.status && query.status !== 'all' ? query.status : undefined;
    const items = await this.db.transaction((m) => m.find(WorkspaceSprintItem, { where: status ? { status } : {}, order: { created_at: 'ASC', id: 'ASC' } }));
    const byGroup = new Map<string | null, WorkspaceSprintItemView[]>();
    for (const item of items) byGroup.set(item.item_group, [...(byGroup.get(item.item_group) ?? []), toWorkspaceSprintItemView(item)]);
    const names = [...byGroup.keys()].filter((g): g is string => g !== null).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || a.localeCompare(b));
    const groups: WorkspaceItemGroup[] = names.map((group) => ({ group, items: byGroup.get(group) ?? [] }));
    if (byGroup.has(null)) groups.push({ group: null, items: byGroup.get(null) ?? [] });
    return { groups, total: items.length };
  }

  async create(input: CreateWorkspaceItemDto): Promise<WorkspaceSprintItemView> {
    const now = this.clock.now();
    const item: WorkspaceSprintItem = {
      id: randomUUID(),
      title: input.title,
      status: input.status ?? 'todo',
      item_group: input.group ?? null,
      notes: input.notes ?? null,
      human_id: input.human_id ?? null,
      created_at: now,
      updated_at: now,
      completed_at: null,
    };
    await this.db.transaction((m) => m.insert(WorkspaceSprintItem, item));
    return toWorkspaceSprintItemView(item);
  }

  /** Changes the fields given; setting an open status on a done item reopens it (completed_at cleared). */
  async update(id: string, input: UpdateWorkspaceItemDto): Promise<WorkspaceSprintItemView> {
    if (Object.values(input).every((v) => v === undefined)) {
      throw RequestError.invalidInput('give title, group, status, notes and/or human_id to change');
    }
    return this.db.transaction(async (m) => {
      const item = await this.require(m, id);
      if (input.title !== undefined) item.title = input.title;
      if (input.group !== undefined) item.item_group = input.group;
      if (input.notes !== undefined) item.notes = input.notes;
      if (input.human_id !== undefined) item.human_id = input.human_id;
      if (input.status !== undefined) {
        item.status = input.status;
        item.completed_at = null;
      }
      item.updated_at = this.clock.now();
      await this.save(m, item);
      return toWorkspaceSprintItemView(item);
    });
  }

  /** Marks the item done and stamps completed_at (kept from the first completion when completed again). */
  async complete(id: string, notes?: string): Promise<WorkspaceSprintItemView> {
    return this.db.transaction(async (m) => {
      const item = await this.require(m, id);
      const now = this.clock.now();
      if (item.status !== 'done') item.completed_at = now;
      item.status = 'done';
      if (notes !== undefined) item.notes = notes;
      item.updated_at = now;
      await this.save(m, item);
      return toWorkspaceSprintItemView(item);
    });
  }

  async remove(id: string): Promise<void> {
    const result = await this.db.transaction((m) => m.delete(WorkspaceSprintItem, { id }));
    if (!result.affected) throw WorkspaceLayerError.itemNotFound(id);
  }

  private async save(m: EntityManager, item: WorkspaceSprintItem) {
    const { id, ...fields } = item;
    await m.update(WorkspaceSprintItem, { id }, fields);
  }

  private async require(m: EntityManager, id: string): Promise<WorkspaceSprintItem> {
    const item = await m.findOneBy(WorkspaceSprintItem, { id });
    if (!item) throw WorkspaceLayerError.itemNotFound(id);
    return item;
  }
}
