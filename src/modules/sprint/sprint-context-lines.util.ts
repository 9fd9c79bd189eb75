import { SprintItem } from './sprint-item.entity';

/** Lines of active items in the context block: most important first (the block drops lines from the end). */
const ACTIVE_LINES = 50;
/** Failed items shown in the context block, newest first; the query reads one more to know whether more exist. */
export const FAILED_LINES = 10;
/** Within a priority, work under way comes before work waiting. */
const STATUS_WEIGHT: Record<string, number> = { in_progress: 0, indeterminate: 1, provisional_complete: 2, pending: 3, todo: 4 };

/**
 * The "sprint_items" lines of the context block: active items by priority,
 * in-progress work first within a priority, then oldest, each with its
 * status, priority, slug, wave and blocker; past ACTIVE_LINES, a line
 * counting the rest.
 */
export function activeItemLines(items: readonly SprintItem[]): string[] {
  const ordered = [...items].sort((a, b) => a.priority_rank - b.priority_rank || STATUS_WEIGHT[a.status] - STATUS_WEIGHT[b.status] || a.added_at.getTime() - b.added_at.getTime());
  const lines = ordered.slice(0, ACTIVE_LINES).map((i) => {
    const extras = [i.priority, i.slug, i.wave, i.blocker_kind ? `blocked: ${i.blocker_kind}` : null].filter(Boolean).join(', ');
    return `[${i.status}] ${i.title} (${extras})`;
  });
  if (ordered.length > ACTIVE_LINES) lines.push(`... and ${ordered.length - ACTIVE_LINES} more active items`);
  return lines;
}

/**
 * The "sprint_failed" lines: failed items as given (newest first), each with
 * the last line of its notes (the reason it failed); when more than
 * FAILED_LINES are given, a line saying where the rest are.
 */
export function failedItemLines(failed: readonly SprintItem[]): string[] {
  const lines = failed.slice(0, FAILED_LINES).map((i) => {
    const why = i.notes?.trim().split('\n').pop();
    return `[failed] ${i.title} (${i.priority}, ${i.slug})${why ? `: ${why}` : ''}`;
  });
  if (failed.length > FAILED_LINES) lines.push('... and more failed items (list_sprint_items with status failed)');
  return lines;
}
