import { Injectable } from '@nestjs/common';
import { bindParams, fromSqlTimestamp, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { requireProject } from '../projects/require-project.util';

interface RevisionRow {
  entity: string;
  entity_id: string;
  op: 'upsert' | 'delete';
  data: string | null;
  changed_at: Date | string;
}

type State = Record<string, unknown>;

/**
 * GET .../rewind: the project as it stood at a past moment (goal, sprint items with their
 * status, pinned decisions, notes), folded from the revisions the database writes with every
 * change (migration ProjectTime). History begins when that migration ran: a row older than it
 * shows as it was then, from its last change.
 */
@Injectable()
export class RewindService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  async at(projectId: string, atText: string) {
    const at = new Date(atText);
    if (Number.isNaN(at.getTime())) throw RequestError.invalidInput('at must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z');
    if (at.getTime() > this.clock.now().getTime()) throw RequestError.invalidInput('at must not be in the future');
    const dialect = this.db.dialect;
    const rows = await this.db.read(async (m) => {
      await requireProject(m, projectId);
      const [sql, params] = bindParams(
        dialect,
        'SELECT entity, entity_id, op, data, changed_at FROM state_revisions WHERE project_id = $1 AND changed_at <= $2 ORDER BY changed_at, seq',
        [projectId, sqlTimestamp(dialect, at)],
      );
      return (await m.query(sql, params)) as RevisionRow[];
    });
    const latest = new Map<string, { entity: string; id: string; state: State; changed_at: Date }>();
    for (const row of rows) {
      if (row.op === 'delete') latest.delete(row.entity_id);
      else latest.set(row.entity_id, { entity: row.entity, id: row.entity_id, state: JSON.parse(row.data ?? '{}') as State, changed_at: fromSqlTimestamp(row.changed_at) });
    }
    const of = (entity: string) => [...latest.values()].filter((v) => v.entity === entity);
    const goal = of('goal')[0];
    return {
      project_id: projectId,
      at: at.toISOString(),
      goal: goal
        ? { content: goal.state.content, north_star: goal.state.north_star, sprint: goal.state.sprint, version: goal.state.version, updated_at: goal.changed_at.toISOString() }
        : null,
      sprint_items: of('sprint_item').map((v) => ({ id: v.id, ...v.state, updated_at: v.changed_at.toISOString() })),
      pinned_decisions: of('pinned_decision')
        .filter((v) => v.state.status === 'active')
        .map((v) => ({ id: v.id, title: v.state.title, body: v.state.body, updated_at: v.changed_at.toISOString() })),
      notes: of('note').map((v) => ({ id: v.id, title: v.state.title, body: v.state.body, tags: parseTags(v.state.tags), updated_at: v.changed_at.toISOString() })),
    };
  }
}

function parseTags(tags: unknown): string[] {
  try {
    return typeof tags === 'string' ? (JSON.parse(tags) as string[]) : [];
  } catch {
    return [];
  }
}
