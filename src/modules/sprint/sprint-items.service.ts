import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { In } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { defaultHumanId } from '../sessions/human-id.util';
import { DuplicateIndex } from './duplicate-index';
import { AddSubtaskDto } from './dto/add-subtask.dto';
import { CreateSprintItemDto } from './dto/create-sprint-item.dto';
import { ListSprintItemsQueryDto } from './dto/sprint-queries.dto';
import { UpdateSprintItemDto } from './dto/update-sprint-item.dto';
import { SprintDb } from './sprint-db.service';
import { SprintDependencies } from './sprint-dependencies.service';
import { IdentifierPool, SprintIdentifiers } from './sprint-identifiers.service';
import { SprintItem } from './sprint-item.entity';
import { SprintItemView, toSprintItemView } from './sprint-item.view';
import { declaresFiles, parseResources } from './sprint-resources.util';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { BoardReadCache } from '../push/board-read-cache.service';
import { requireItem } from './sprint-store.util';
import { SprintTx } from './sprint-tx';
import { ACTIVE_STATUSES, DUPLICATE_BLOCKING_STATUSES, LIST_LIMIT_DEFAULT, PATCHABLE_STATUSES, PRIORITY_RANK, SprintItemStatus, TERMINAL_STATUSES } from './sprint.constants';
import { SprintError } from './sprint.errors';

/** What a create may also carry when it comes from add_subtask. */
export interface CreateContext {
  duplicates?: DuplicateIndex;
  identifiers?: IdentifierPool;
  parent?: SprintItem;
  owner?: 'human' | 'ai';
}

/** Sprint items: list, read, create (with near-duplicate refusal), PATCH, delete, subtasks. */
@Injectable()
export class SprintItemsService {
  constructor(
    private readonly sprint: SprintDb,
    private readonly identifiers: SprintIdentifiers,
    private readonly dependencies: SprintDependencies,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: ProjectSettingsService,
    private readonly board: BoardReadCache,
  ) {}

  /** Declared resources, file paths spelled by the project's rules (read only when a file is declared). */
  private async resourcesOf(tx: SprintTx, values: string[]) {
    return parseResources(values, declaresFiles(values) ? await this.settings.pathRules(tx.m, tx.projectId) : {});
  }

  /** Items of a project, most urgent first, then oldest first. */
  async list(projectId: string, query: ListSprintItemsQueryDto): Promise<SprintItemView[]> {
    const key = `sprint-items:${projectId}:${query.status ?? ''}:${query.version ?? ''}:${query.limit ?? ''}:${query.offset ?? ''}`;
    return this.board.read(key, () => this.listNow(projectId, query));
  }

  private listNow(projectId: string, query: ListSprintItemsQueryDto): Promise<SprintItemView[]> {
    return this.sprint.run(projectId, async (tx) => {
      const items = await tx.m.find(SprintItem, {
        where: { project_id: projectId, ...(query.status ? { status: In(expandStatuses(query.status)) } : {}), ...(query.version ? { version: query.version } : {}) },
        order: { priority_rank: 'ASC', added_at: 'ASC', id: 'ASC' },
        take: query.limit ?? LIST_LIMIT_DEFAULT,
        skip: query.offset ?? 0,
      });
      return items.map(toSprintItemView);
    });
  }

  async get(projectId: string, ref: string): Promise<SprintItemView> {
    return this.sprint.run(projectId, async (tx) => toSprintItemView(await requireItem(tx.m, projectId, ref)));
  }

  async create(projectId: string, input: CreateSprintItemDto): Promise<SprintItemView> {
    return this.sprint.run(projectId, async (tx) => toSprintItemView(await this.createIn(tx, input)), { retryOnUniqueViolation: true });
  }

  async addSubtask(projectId: string, parentRef: string, input: AddSubtaskDto): Promise<SprintItemView> {
    return this.sprint.run(
      projectId,
      async (tx) => {
        const parent = await requireItem(tx.m, projectId, parentRef, 'parent_id');
        const { owner, ...rest } = input;
        const create: CreateSprintItemDto = { ...rest, version: parent.version };
        if (parent.sprint_name) create.sprint_name = parent.sprint_name;
        if (parent.track) create.track = parent.track;
        if (parent.item_group) create.group = parent.item_group;
        return toSprintItemView(await this.createIn(tx, create, { parent, owner: owner ?? 'ai' }));
      },
      { retryOnUniqueViolation: true },
    );
  }

  /** The near-duplicate index of the project's pending, todo and in-progress items. */
  async duplicateIndex(tx: SprintTx): Promise<DuplicateIndex> {
    const rows = await tx.m.find(SprintItem, {
      select: { id: true, title: true, status: true, slug: true },
      where: { project_id: tx.projectId, status: In([...DUPLICATE_BLOCKING_STATUSES]) },
    });
    return new DuplicateIndex(rows);
  }

  async createIn(tx: SprintTx, input: CreateSprintItemDto, context: CreateContext = {}): Promise<SprintItem> {
    if (!input.force) {
      const duplicates = context.duplicates ?? (await this.duplicateIndex(tx));
      const found = duplicates.find(input.title);
      if (found) throw SprintError.duplicateTitle(input.title, found.candidate, found.overlap);
    }
    const id = randomUUID();
    const dependsOn = input.depends_on ? (await this.dependencies.resolve(tx, id, input.depends_on)).id : null;
    const resources = await this.resourcesOf(tx, input.touches_resources ?? []);
    const priority = input.priority ?? 'normal';
    const make = ({ slug, nickname }: { slug: string; nickname: string }): SprintItem => ({
      id,
      project_id: tx.projectId,
      version: input.version,
      title: input.title,
      status: 'pending',
      item_group: input.group ?? null,
      human_id: input.human_id ?? defaultHumanId(this.config.humanId),
      notes: input.notes ?? null,
      depends_on: dependsOn,
      failure_mode: input.failure_mode ?? 'continue',
      milestone_type: input.milestone_type ?? 'task',
      track: input.track ?? null,
      wave: input.wave ?? null,
      priority,
      priority_rank: PRIORITY_RANK[priority],
      blocker_kind: input.blocker_kind ?? null,
      deferred_until: input.deferred_until ? new Date(input.deferred_until) : null,
      touches_resources: JSON.stringify(resources.map((r) => r.resource)),
      parent_id: context.parent?.id ?? null,
      owner: context.owner ?? null,
      required_notes: input.required_notes ?? 0,
      slug,
      nickname,
      sprint_name: input.sprint_name ?? null,
      prospect_bypass: input.prospect_bypass ?? 0,
      stall_count: 0,
      pushed_to: null,
      task_id: null,
      claimed_at: null,
      completed_at: null,
      added_at: tx.now,
      claimed_by_session_id: null,
      claimant: null,
      touches_files: '[]',
      locations: '[]',
      prospected_at: null,
      updated_at: tx.now,
    });
    const item = await this.identifiers.insert(tx, input.title, id, make, context.identifiers);
    await this.dependencies.writeResources(tx, item.id, resources, true);
    context.duplicates?.add(item);
    tx.changed('created', item);
    return item;
  }

  async update(projectId: string, ref: string, input: UpdateSprintItemDto): Promise<SprintItemView> {
    return this.sprint.run(projectId, async (tx) => toSprintItemView(await this.updateIn(tx, await requireItem(tx.m, projectId, ref), input)));
  }

  /**
   * Applies a PATCH. Status may only be reset to pending, todo or
   * indeterminate (which drops any claim and completion stamp); an item in
   * progress changes only with force.
   */
  async updateIn(tx: SprintTx, item: SprintItem, input: UpdateSprintItemDto, duplicates?: DuplicateIndex): Promise<SprintItem> {
    const { force, status, group, touches_resources, depends_on, deferred_until, priority, ...plain } = input;
    if (status !== undefined && !PATCHABLE_STATUSES.includes(status as SprintItemStatus)) throw SprintError.statusNotPatchable(status);
    if (item.status === 'in_progress' && !force) throw SprintError.itemInProgress(item.slug, item.claimed_by_session_id);
    const next: SprintItem = { ...item, updated_at: tx.now };
    for (const [key, value] of Object.entries(plain)) {
      if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
    }
    if (input.title !== undefined && input.title !== item.title && !force) {
      const found = (duplicates ?? (await this.duplicateIndex(tx))).find(input.title, item.id);
      if (found) throw SprintError.duplicateTitle(input.title, found.candidate, found.overlap);
    }
    if (group !== undefined) next.item_group = group;
    if (priority !== undefined) {
      next.priority = priority;
      next.priority_rank = PRIORITY_RANK[priority];
    }
    if (deferred_until !== undefined) next.deferred_until = deferred_until === null ? null : new Date(deferred_until);
    if (depends_on !== undefined) next.depends_on = depends_on === null ? null : (await this.dependencies.resolve(tx, item.id, depends_on)).id;
    if (touches_resources !== undefined) {
      const resources = await this.resourcesOf(tx, touches_resources);
      next.touches_resources = JSON.stringify(resources.map((r) => r.resource));
      await this.dependencies.writeResources(tx, item.id, resources);
    }
    if (status !== undefined && status !== item.status) {
      next.status = status as SprintItemStatus;
      next.claimed_at = null;
      next.claimed_by_session_id = null;
      next.claimant = null;
      next.completed_at = null;
      next.pushed_to = null;
      tx.claimLost(item, null);
    }
    const { id, project_id, ...changes } = next;
    const result = await tx.m.update(SprintItem, { id, project_id, status: item.status }, changes);
    if (!result.affected) throw SprintError.statusRace(item.slug);
    if (duplicates && next.title !== item.title) {
      duplicates.remove(item.id);
      duplicates.add(next);
    }
    tx.changed('updated', next);
    return next;
  }

  async remove(projectId: string, ref: string): Promise<void> {
    await this.sprint.run(projectId, async (tx) => this.removeIn(tx, await requireItem(tx.m, projectId, ref)));
  }

  /** Deletes an item; its subtasks stay as top-level items and its dependents lose the dependency. */
  async removeIn(tx: SprintTx, item: SprintItem, duplicates?: DuplicateIndex): Promise<void> {
    await tx.m.delete(SprintItem, { id: item.id, project_id: item.project_id });
    tx.claimLost(item, null);
    duplicates?.remove(item.id);
    tx.deleted(item.id);
  }
}

/** A status filter (`pending,in_progress`, `active`, `terminal`) as the statuses it names. */
export function expandStatuses(filter: string): SprintItemStatus[] {
  const out = new Set<SprintItemStatus>();
  for (const word of filter.split(',')) {
    if (word === 'active') ACTIVE_STATUSES.forEach((s) => out.add(s));
    else if (word === 'terminal') TERMINAL_STATUSES.forEach((s) => out.add(s));
    else out.add(word as SprintItemStatus);
  }
  return [...out];
}
