import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull, Not } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { AiLogExportState } from '../ai-log/ai-log-export-state.entity';
import { Handoff } from '../handoff/handoff.entity';
import { Project } from '../projects/project.entity';
import { WorkspaceProposal } from '../proposals/workspace-proposal.entity';
import { SprintItem } from '../sprint/sprint-item.entity';
import { CONTROL_PLANE_LIMIT_DEFAULT, CONTROL_PLANE_SOURCE_MAX } from './control-plane.constants';
import { ControlPlanePageDto } from './dto/control-plane-page.dto';

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
}

export interface ArtifactView {
  kind: 'handoff' | 'otlp_export';
  id: string;
  project_id: string | null;
  title: string;
  bytes: number | null;
  count: number | null;
  status: string | null;
  created_at: string | null;
}

export interface RecordRef {
  type: 'project' | 'sprint_item' | 'proposal';
  id: string;
  title: string | null;
}

export interface RelationshipView {
  kind: 'depends_on' | 'parent' | 'project_parent' | 'promoted_to';
  from: RecordRef;
  to: RecordRef;
}

export interface ProposalSummary {
  id: string;
  title: string;
  status: string;
  sprint_item_id: string | null;
  promoted_project_id: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The control-plane views: read-only, paginated summaries of what a workspace
 * holds, safe for anyone operating the service to see. They carry ids,
 * titles, kinds, counts, sizes and times, never a body (of a note, task,
 * decision, message, HITL question, proposal or handoff), a file path, a
 * token or a URL. Each view is built from an explicit list of columns, so a
 * column added to a source table cannot leak into one.
 */
@Injectable()
export class ControlPlaneService {
  constructor(private readonly db: TenantDb) {}

  /** What the service produced: handoffs and OTLP export passes, newest first. */
  async artifacts(page: ControlPlanePageDto): Promise<Page<ArtifactView>> {
    return this.db.read(async (m) => {
      const handoffs = await m.find(Handoff, {
        select: { id: true, project_id: true, mode: true, bytes: true, created_at: true, consumed_at: true },
        order: { created_at: 'DESC', id: 'DESC' },
        take: CONTROL_PLANE_SOURCE_MAX,
      });
      const exports = await m.find(AiLogExportState, {
        select: { scope: true, project_id: true, exported_count: true, last_status: true, last_attempt_at: true },
        where: { last_attempt_at: Not(IsNull()) },
        take: CONTROL_PLANE_SOURCE_MAX,
      });
      const items: ArtifactView[] = [
        ...handoffs.map((h) => ({
          kind: 'handoff' as const,
          id: h.id,
          project_id: h.project_id,
          title: `${h.mode} handoff`,
          bytes: h.bytes,
          count: null,
          status: h.consumed_at ? 'consumed' : 'issued',
          created_at: h.created_at.toISOString(),
        })),
        ...exports.map((e) => ({
          kind: 'otlp_export' as const,
          id: e.scope,
          project_id: e.project_id,
          title: 'AI-log OTLP export',
          bytes: null,
          count: Number(e.exported_count),
          status: e.last_status,
          created_at: e.last_attempt_at?.toISOString() ?? null,
        })),
      ];
      items.sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? '') || a.id.localeCompare(b.id));
      return paged(items, page);
    });
  }

  /** Proposals without their bodies, newest first. */
  async proposals(page: ControlPlanePageDto): Promise<Page<ProposalSummary>> {
    const limit = page.limit ?? CONTROL_PLANE_LIMIT_DEFAULT;
    const offset = page.offset ?? 0;
    return this.db.read(async (m) => {
      const [rows, total] = await m.findAndCount(WorkspaceProposal, {
        select: { id: true, title: true, status: true, sprint_item_id: true, promoted_project_id: true, created_at: true, updated_at: true },
        order: { created_at: 'DESC', id: 'DESC' },
        take: limit,
        skip: offset,
      });
      const items = rows.map((p) => ({
        id: p.id,
        title: p.title,
        status: p.status,
        sprint_item_id: p.sprint_item_id,
        promoted_project_id: p.promoted_project_id,
        created_at: p.created_at.toISOString(),
        updated_at: p.updated_at.toISOString(),
      }));
      return { items, total, limit, offset, next_offset: offset + items.length < total ? offset + items.length : null };
    });
  }

  /** Links between records: item dependencies, subtask parents, subproject parents, proposal → promoted item. */
  async relationships(page: ControlPlanePageDto): Promise<Page<RelationshipView>> {
    return this.db.read(async (m) => {
      const linked = await m.find(SprintItem, {
        select: { id: true, title: true, depends_on: true, parent_id: true },
        where: [{ depends_on: Not(IsNull()) }, { parent_id: Not(IsNull()) }],
        order: { added_at: 'ASC', id: 'ASC' },
        take: CONTROL_PLANE_SOURCE_MAX,
      });
      const subprojects = await m.find(Project, { select: { id: true, name: true, parent_id: true }, where: { parent_id: Not(IsNull()) }, take: CONTROL_PLANE_SOURCE_MAX });
      const promoted = await m.find(WorkspaceProposal, {
        select: { id: true, title: true, sprint_item_id: true },
        where: { sprint_item_id: Not(IsNull()) },
        take: CONTROL_PLANE_SOURCE_MAX,
      });
      const itemTitles = await titlesOf(m, SprintItem, [...linked.flatMap((i) => [i.depends_on, i.parent_id]), ...promoted.map((p) => p.sprint_item_id)]);
      const projectNames = await titlesOf(
        m,
        Project,
        subprojects.map((p) => p.parent_id),
      );
      const item = (id: string, title?: string | null): RecordRef => ({ type: 'sprint_item', id, title: title ?? itemTitles.get(id) ?? null });
      const items: RelationshipView[] = [
        ...linked.flatMap((i) => [
          ...(i.depends_on ? [{ kind: 'depends_on' as const, from: item(i.id, i.title), to: item(i.depends_on) }] : []),
          ...(i.parent_id ? [{ kind: 'parent' as const, from: item(i.id, i.title), to: item(i.parent_id) }] : []),
        ]),
        ...subprojects.map((p) => ({
          kind: 'project_parent' as const,
          from: { type: 'project' as const, id: p.id, title: p.name },
          to: { type: 'project' as const, id: p.parent_id!, title: projectNames.get(p.parent_id!) ?? null },
        })),
        ...promoted.map((p) => ({ kind: 'promoted_to' as const, from: { type: 'proposal' as const, id: p.id, title: p.title }, to: item(p.sprint_item_id!) })),
      ];
      return paged(items, page);
    });
  }
}

async function titlesOf(m: EntityManager, target: typeof SprintItem | typeof Project, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const rows: { id: string; title?: string; name?: string }[] =
    target === Project
      ? await m.find(Project, { select: { id: true, name: true }, where: { id: In(wanted) } })
      : await m.find(SprintItem, { select: { id: true, title: true }, where: { id: In(wanted) } });
  return new Map(rows.map((r) => [r.id, (r.title ?? r.name)!]));
}

function paged<T>(all: T[], page: ControlPlanePageDto): Page<T> {
  const limit = page.limit ?? CONTROL_PLANE_LIMIT_DEFAULT;
  const offset = page.offset ?? 0;
  const items = all.slice(offset, offset + limit);
  return { items, total: all.length, limit, offset, next_offset: offset + items.length < all.length ? offset + items.length : null };
}
