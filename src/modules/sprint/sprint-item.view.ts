import { fromSqlTimestamp } from '../../../libs/tenancy';
import { SprintItem } from './sprint-item.entity';
import { BlockerKind, Claimant, FailureMode, MilestoneType, SprintItemStatus, SprintOwner, SprintPriority } from './sprint.constants';

/** A sprint item as REST and MCP clients see it: the spec's fields, ISO timestamps, parsed JSON arrays. */
export interface SprintItemView {
  id: string;
  project_id: string;
  version: string;
  title: string;
  status: SprintItemStatus;
  item_group: string | null;
  /** The REST body key of item_group, repeated so a client can read back what it wrote. */
  group: string | null;
  human_id: string | null;
  notes: string | null;
  depends_on: string | null;
  failure_mode: FailureMode;
  milestone_type: MilestoneType;
  track: string | null;
  wave: string | null;
  priority: SprintPriority;
  blocker_kind: BlockerKind | null;
  deferred_until: string | null;
  touches_resources: string[];
  parent_id: string | null;
  owner: SprintOwner | null;
  required_notes: number;
  slug: string;
  nickname: string;
  sprint_name: string | null;
  prospect_bypass: number;
  stall_count: number;
  pushed_to: string | null;
  task_id: string | null;
  claimed_at: string | null;
  completed_at: string | null;
  added_at: string;
  claimed_by_session_id: string | null;
  claimant: Claimant | null;
  touches_files: string[];
  locations: string[];
  prospected_at: string | null;
  updated_at: string;
}

const iso = (value: Date | string | null): string | null => (value === null || value === undefined ? null : fromSqlTimestamp(value).toISOString());

export function toSprintItemView(item: SprintItem): SprintItemView {
  return {
    id: item.id,
    project_id: item.project_id,
    version: item.version,
    title: item.title,
    status: item.status,
    item_group: item.item_group,
    group: item.item_group,
    human_id: item.human_id,
    notes: item.notes,
    depends_on: item.depends_on,
    failure_mode: item.failure_mode,
    milestone_type: item.milestone_type,
    track: item.track,
    wave: item.wave,
    priority: item.priority,
    blocker_kind: item.blocker_kind,
    deferred_until: iso(item.deferred_until),
    touches_resources: JSON.parse(item.touches_resources) as string[],
    parent_id: item.parent_id,
    owner: item.owner,
    required_notes: Number(item.required_notes),
    slug: item.slug,
    nickname: item.nickname,
    sprint_name: item.sprint_name,
    prospect_bypass: Number(item.prospect_bypass),
    stall_count: Number(item.stall_count),
    pushed_to: item.pushed_to,
    task_id: item.task_id,
    claimed_at: iso(item.claimed_at),
    completed_at: iso(item.completed_at),
    added_at: iso(item.added_at) as string,
    claimed_by_session_id: item.claimed_by_session_id,
    claimant: item.claimant,
    touches_files: JSON.parse(item.touches_files) as string[],
    locations: JSON.parse(item.locations) as string[],
    prospected_at: iso(item.prospected_at),
    updated_at: iso(item.updated_at) as string,
  };
}

/**
 * A row returned by raw SQL (`RETURNING *`) as an entity: timestamps arrive
 * as Date on Postgres and as text on SQLite.
 */
export function itemFromRow(row: Record<string, unknown>): SprintItem {
  const ts = (v: unknown) => (v === null || v === undefined ? null : fromSqlTimestamp(v as Date | string));
  return {
    ...(row as unknown as SprintItem),
    deferred_until: ts(row.deferred_until),
    claimed_at: ts(row.claimed_at),
    completed_at: ts(row.completed_at),
    added_at: ts(row.added_at) as Date,
    prospected_at: ts(row.prospected_at),
    updated_at: ts(row.updated_at) as Date,
    required_notes: Number(row.required_notes),
    prospect_bypass: Number(row.prospect_bypass),
    stall_count: Number(row.stall_count),
    priority_rank: Number(row.priority_rank),
  };
}
