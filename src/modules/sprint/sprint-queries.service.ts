import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { SprintDb } from './sprint-db.service';
import { SprintItemResource } from './sprint-item-resource.entity';
import { SprintItem } from './sprint-item.entity';
import { SprintItemView, toSprintItemView } from './sprint-item.view';
import { expandStatuses } from './sprint-items.service';
import { declaresFiles, parseResource } from './sprint-resources.util';
import { WaitingItem } from './sprint-waiting-gates.util';
import { waitingItems } from './sprint-waiting.util';
import { ACTIVE_STATUSES, Claimant, LIST_LIMIT_MAX, NEXT_CLAIMABLE_STATUSES, SprintItemStatus } from './sprint.constants';

export interface PendingCount {
  pending_count: number;
  by_status: Record<string, number>;
  version: string | null;
}

export interface CoverageItem {
  id: string;
  slug: string;
  title: string;
  expected: boolean;
  reason: string;
}

export interface TestCoverageExpected {
  expected: boolean;
  reason: string;
  items: CoverageItem[];
}

/** GET sprint/gates: the todo and pending items a next-claim would pass over, each with every gate holding it. */
export interface SprintGates {
  claimant: Claimant;
  /** Todo and pending items in all, claimable or not. */
  waiting: number;
  /** The held ones in serving order (an item not listed is claimable now). */
  items: WaitingItem[];
}

/** No session: a file lock held by any live session holds the item. */
const NO_SESSION = '00000000-0000-0000-0000-000000000000';

const TEST_WORDS = /\b(tests?|testing|specs?|coverage|regression|e2e|unit)\b/i;
const TEST_FILE = /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec|e2e-spec)\.[a-z]+$/i;
const DOC_FILE = /\.(md|mdx|txt|rst|adoc)$/i;

/** Read-only questions about a sprint: how much is left, who touches a resource, whether tests are expected. */
@Injectable()
export class SprintQueries {
  constructor(
    private readonly sprint: SprintDb,
    private readonly settings: ProjectSettingsService,
  ) {}

  /** Items not yet finished (todo, pending, in_progress, indeterminate, provisional_complete). */
  async pendingCount(projectId: string, version?: string): Promise<PendingCount> {
    return this.sprint.read(projectId, async (tx) => {
      const query = tx.m
        .createQueryBuilder(SprintItem, 'i')
        .select('i.status', 'status')
        .addSelect('COUNT(*)', 'n')
        .where('i.project_id = :projectId', { projectId })
        .andWhere('i.status IN (:...statuses)', { statuses: [...ACTIVE_STATUSES] });
      if (version !== undefined) query.andWhere('i.version = :version', { version });
      const rows: { status: string; n: string | number }[] = await query.groupBy('i.status').getRawMany();
      const byStatus: Record<string, number> = Object.fromEntries(ACTIVE_STATUSES.map((s) => [s, 0]));
      for (const r of rows) byStatus[r.status] = Number(r.n);
      return { pending_count: Object.values(byStatus).reduce((a, b) => a + b, 0), by_status: byStatus, version: version ?? null };
    });
  }

  /**
   * Why each waiting item is not claimable now, as a next-claim by `claimant` outside any session would see it
   * (the same gate conditions and details as a next-claim that found nothing, for every item rather than the first 20).
   */
  async gates(projectId: string, claimant: Claimant = 'ai'): Promise<SprintGates> {
    return this.sprint.read(projectId, async (tx) => {
      const waiting = await tx.m.count(SprintItem, { where: { project_id: projectId, status: In([...NEXT_CLAIMABLE_STATUSES]) } });
      const listed = waiting === 0 ? [] : await waitingItems(tx, NO_SESSION, claimant, LIST_LIMIT_MAX);
      // "contended" means no gate held the item as it was read: it is claimable.
      return { claimant, waiting, items: listed.filter((w) => w.gates.some((g) => g.gate !== 'contended')) };
    });
  }

  /** Items that declare `resource` among their touches_resources (reverse lookup). */
  async byResource(projectId: string, resource: string, status?: string): Promise<SprintItemView[]> {
    return this.sprint.read(projectId, async (tx) => {
      const { resource: key } = parseResource(resource, declaresFiles([resource]) ? await this.settings.pathRules(tx.m, projectId) : {});
      const ids = (await tx.m.find(SprintItemResource, { select: { item_id: true }, where: { project_id: projectId, resource: key } })).map((r) => r.item_id);
      if (ids.length === 0) return [];
      const items = await tx.m.find(SprintItem, {
        where: { project_id: projectId, id: In(ids), ...(status ? { status: In(expandStatuses(status)) } : {}) },
        order: { priority_rank: 'ASC', added_at: 'ASC', id: 'ASC' },
      });
      return items.map(toSprintItemView);
    });
  }

  /**
   * Whether the work in progress (of one session, or of anyone) calls for
   * tests: yes when the project asks for a minimum of tests
   * (executor_config.test_min), or an item's title or notes speak of tests,
   * or it touches a test file; never for milestones, human work, or items
   * that only touch documentation.
   */
  async testCoverageExpected(projectId: string, sessionId?: string): Promise<TestCoverageExpected> {
    return this.sprint.read(projectId, async (tx) => {
      const items = await tx.m.find(SprintItem, {
        where: { project_id: projectId, status: 'in_progress' as SprintItemStatus, ...(sessionId ? { claimed_by_session_id: sessionId } : {}) },
        order: { priority_rank: 'ASC', claimed_at: 'ASC' },
      });
      if (items.length === 0) return { expected: false, reason: sessionId ? 'the session holds no item in progress' : 'no item is in progress', items: [] };
      const testMin = (await this.settings.read(tx.m, projectId)).executor_config.test_min ?? 0;
      const verdicts = items.map((item) => ({ id: item.id, slug: item.slug, title: item.title, ...coverageOf(item, testMin) }));
      const first = verdicts.find((v) => v.expected);
      return { expected: Boolean(first), reason: first ? `${first.slug}: ${first.reason}` : verdicts[0].reason, items: verdicts };
    });
  }
}

function coverageOf(item: SprintItem, testMin: number): { expected: boolean; reason: string } {
  if (item.milestone_type !== 'task') return { expected: false, reason: `it is a ${item.milestone_type} item, not code work` };
  const files = (JSON.parse(item.touches_resources) as string[]).filter((r) => r.startsWith('file:')).map((r) => r.slice(5));
  if (files.some((f) => TEST_FILE.test(f))) return { expected: true, reason: 'it touches a test file' };
  if (TEST_WORDS.test(item.title) || TEST_WORDS.test(item.notes ?? '')) return { expected: true, reason: 'its title or notes call for tests' };
  if (files.length > 0 && files.every((f) => DOC_FILE.test(f))) return { expected: false, reason: 'it only touches documentation' };
  if (testMin > 0) return { expected: true, reason: `the project asks for at least ${testMin} test(s) per change (executor_config.test_min)` };
  return { expected: false, reason: 'nothing about it calls for tests' };
}
