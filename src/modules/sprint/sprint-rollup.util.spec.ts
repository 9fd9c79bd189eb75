import { rollUpOf } from './sprint-rollup.util';
import { SprintItemStatus } from './sprint.constants';

const of = (...statuses: SprintItemStatus[]) => statuses.map((status) => ({ status }));

describe('rollUpOf', () => {
  test('every subtask done or skipped makes the parent done, counting them', () => {
    expect(rollUpOf('pending', of('done', 'skipped', 'done'))).toEqual({ status: 'done', note: 'Done: all 3 subtasks finished.' });
    expect(rollUpOf('in_progress', of('done'))).toEqual({ status: 'done', note: 'Done: all 1 subtasks finished.' });
  });

  test('a failed subtask makes the parent indeterminate, whatever the others are, once none is active', () => {
    expect(rollUpOf('pending', of('done', 'failed', 'pushed'))).toEqual({ status: 'indeterminate', note: 'Indeterminate: a subtask failed.' });
  });

  test('a parent already indeterminate is left as it is when a subtask failed, but becomes done when all finished well', () => {
    expect(rollUpOf('indeterminate', of('failed'))).toBeNull();
    expect(rollUpOf('indeterminate', of('done', 'skipped'))).toEqual({ status: 'done', note: 'Done: all 2 subtasks finished.' });
  });

  test('nothing changes while any subtask is active', () => {
    for (const active of ['todo', 'pending', 'in_progress', 'indeterminate', 'provisional_complete'] as const) {
      expect(rollUpOf('pending', of('done', 'failed', active))).toBeNull();
    }
  });

  test('a pushed subtask among finished ones leaves the outcome open; no subtask at all changes nothing', () => {
    expect(rollUpOf('pending', of('done', 'pushed'))).toBeNull();
    expect(rollUpOf('pending', [])).toBeNull();
  });
});
