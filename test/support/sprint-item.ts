import { SprintItem } from '../../src/modules/sprint/sprint-item.entity';

/**
 * A sprint item as a row holds it, for unit specs of the rules that read one: a pending task of
 * version v1 whose id is `id-<slug>`, touching nothing, with `fields` on top.
 */
export function sprintItem(slug: string, fields: Partial<SprintItem> = {}): SprintItem {
  const added = new Date('2026-03-01T09:00:00Z');
  return {
    id: `id-${slug}`,
    project_id: 'project-1',
    version: 'v1',
    title: `Work on ${slug}`,
    status: 'pending',
    item_group: null,
    human_id: null,
    notes: null,
    depends_on: null,
    failure_mode: 'continue',
    milestone_type: 'task',
    track: null,
    wave: null,
    priority: 'normal',
    priority_rank: 2,
    blocker_kind: null,
    deferred_until: null,
    touches_resources: '[]',
    parent_id: null,
    owner: null,
    required_notes: 0,
    slug,
    nickname: slug,
    sprint_name: null,
    prospect_bypass: 0,
    stall_count: 0,
    pushed_to: null,
    task_id: null,
    claimed_at: null,
    completed_at: null,
    added_at: added,
    claimed_by_session_id: null,
    claimant: null,
    touches_files: '[]',
    locations: '[]',
    prospected_at: null,
    updated_at: added,
    ...fields,
  };
}
