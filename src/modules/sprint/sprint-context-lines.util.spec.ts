import { sprintItem } from '../../../test/support/sprint-item';
import { activeItemLines, FAILED_LINES, failedItemLines } from './sprint-context-lines.util';
import { PRIORITY_RANK } from './sprint.constants';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 9, minute));

describe('activeItemLines', () => {
  test('by priority, work under way first within a priority, then oldest first', () => {
    const items = [
      sprintItem('old-pending', { added_at: at(1) }),
      sprintItem('todo', { status: 'todo', added_at: at(0) }),
      sprintItem('late-urgent', { priority: 'urgent', priority_rank: PRIORITY_RANK.urgent, added_at: at(9) }),
      sprintItem('new-pending', { added_at: at(5) }),
      sprintItem('checking', { status: 'provisional_complete', added_at: at(8) }),
      sprintItem('unsure', { status: 'indeterminate', added_at: at(7) }),
      sprintItem('working', { status: 'in_progress', added_at: at(6) }),
      sprintItem('someday', { priority: 'low', priority_rank: PRIORITY_RANK.low, status: 'in_progress', added_at: at(0) }),
    ];
    expect(activeItemLines(items).map((l) => l.match(/\(\w+, ([a-z-]+)/)![1])).toEqual([
      'late-urgent',
      'working',
      'unsure',
      'checking',
      'old-pending',
      'new-pending',
      'todo',
      'someday',
    ]);
    expect(items[0].slug).toBe('old-pending');
  });

  test('a line says status, title, priority, slug, then the wave and the blocker when there are', () => {
    expect(activeItemLines([sprintItem('plain')])).toEqual(['[pending] Work on plain (normal, plain)']);
    expect(activeItemLines([sprintItem('full', { wave: 'wave-2', blocker_kind: 'manual', status: 'todo', priority: 'high', priority_rank: 1 })])).toEqual([
      '[todo] Work on full (high, full, wave-2, blocked: manual)',
    ]);
  });

  test('past 50 items, one line counts the rest', () => {
    const items = Array.from({ length: 53 }, (_, i) => sprintItem(`item-${i}`, { added_at: at(i) }));
    const lines = activeItemLines(items);
    expect(lines).toHaveLength(51);
    expect(lines[49]).toContain('item-49');
    expect(lines[50]).toBe('... and 3 more active items');
    expect(activeItemLines(items.slice(0, 50))).toHaveLength(50);
  });

  test('no item gives no line', () => {
    expect(activeItemLines([])).toEqual([]);
  });
});

describe('failedItemLines', () => {
  test('each failed item with the last line of its notes, the reason it failed', () => {
    expect(
      failedItemLines([
        sprintItem('broken', { status: 'failed', notes: 'Started on it.\nFailed: the API is gone  \n' }),
        sprintItem('silent', { status: 'failed', priority: 'high' }),
        sprintItem('blank', { status: 'failed', notes: '   ' }),
      ]),
    ).toEqual(['[failed] Work on broken (normal, broken): Failed: the API is gone', '[failed] Work on silent (high, silent)', '[failed] Work on blank (normal, blank)']);
  });

  test(`more than ${FAILED_LINES} given: ${FAILED_LINES} lines, in the order given, then one saying where the rest are`, () => {
    const failed = Array.from({ length: FAILED_LINES + 1 }, (_, i) => sprintItem(`f-${i}`, { status: 'failed' }));
    const lines = failedItemLines(failed);
    expect(lines).toHaveLength(FAILED_LINES + 1);
    expect(lines[0]).toContain('f-0');
    expect(lines[FAILED_LINES]).toBe('... and more failed items (list_sprint_items with status failed)');
    expect(failedItemLines(failed.slice(0, FAILED_LINES))).toHaveLength(FAILED_LINES);
  });
});
