import { SprintError, SprintErrorCode } from './sprint.errors';
import { highestWaveNumber, labelWaves, planWaves, WaveItem } from './sprint-waves.planner';

/** An item named `slug` (its id is `id-<slug>`), pending in v1 unless told otherwise. */
function item(slug: string, fields: Partial<Omit<WaveItem, 'touches_resources'>> & { resources?: string[] } = {}): WaveItem {
  const { resources = [], ...rest } = fields;
  return {
    id: `id-${slug}`,
    slug,
    status: 'pending',
    version: 'v1',
    blocker_kind: null,
    depends_on: null,
    failure_mode: 'continue',
    touches_resources: JSON.stringify(resources),
    ...rest,
  };
}

const on = (slug: string) => `id-${slug}`;
const slugs = (waves: WaveItem[][]) => waves.map((w) => w.map((i) => i.slug));

function cycleOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SprintError);
    expect((error as SprintError).code).toBe(SprintErrorCode.DependencyCycle);
    return (error as SprintError).extra?.cycle;
  }
  throw new Error('no dependency cycle was refused');
}

describe('planWaves', () => {
  test('an item runs in a wave after the wave of what it depends on', () => {
    const plan = planWaves([item('c', { depends_on: on('b') }), item('b', { depends_on: on('a') }), item('a')]);
    expect(slugs(plan.waves)).toEqual([['a'], ['b'], ['c']]);
    expect(plan.planned).toEqual(new Set([on('a'), on('b'), on('c')]));
  });

  test('items touching the same resource go to different waves; items with different resources share one', () => {
    const plan = planWaves([
      item('a', { resources: ['file:x.ts'] }),
      item('b', { resources: ['file:x.ts', 'table:users'] }),
      item('c', { resources: ['table:users'] }),
      item('d', { resources: ['file:y.ts'] }),
    ]);
    expect(slugs(plan.waves)).toEqual([['a', 'c', 'd'], ['b']]);
  });

  test('a conflicting item takes the first wave after its dependency with room, not the last wave', () => {
    const plan = planWaves([
      item('a', { resources: ['r:1'] }),
      item('b', { resources: ['r:1'] }),
      item('c', { resources: ['r:1'] }),
      item('d', { resources: ['r:2'], depends_on: on('a') }),
    ]);
    expect(slugs(plan.waves)).toEqual([['a'], ['b', 'd'], ['c']]);
  });

  test('items declaring no resources share waves with each other and with declared items, and are counted', () => {
    const plan = planWaves([item('a'), item('b'), item('c', { resources: ['file:x.ts'] }), item('d')]);
    expect(slugs(plan.waves)).toEqual([['a', 'b', 'c', 'd']]);
    expect(plan.undeclared).toBe(3);
  });

  test('an item declaring no resources still waits for what it depends on', () => {
    const plan = planWaves([item('a', { resources: ['file:x.ts'] }), item('b', { depends_on: on('a') }), item('c')]);
    expect(slugs(plan.waves)).toEqual([['a', 'c'], ['b']]);
  });

  test('a dependency cycle among planned items is refused, naming it from the first item that reaches it', () => {
    expect(cycleOf(() => planWaves([item('a', { depends_on: on('b') }), item('b', { depends_on: on('a') })]))).toEqual(['a', 'b', 'a']);
    expect(cycleOf(() => planWaves([item('p', { depends_on: on('x') }), item('x', { depends_on: on('y') }), item('y', { depends_on: on('x') })]))).toEqual(['x', 'y', 'x']);
  });

  test('a cycle among finished items reached from a planned item is refused too; one no planned item reaches is not', () => {
    const done = (slug: string, dep: string) => item(slug, { status: 'done', depends_on: on(dep) });
    expect(cycleOf(() => planWaves([item('p', { depends_on: on('x') }), done('x', 'y'), done('y', 'x')]))).toEqual(['x', 'y', 'x']);
    expect(slugs(planWaves([item('p'), done('x', 'y'), done('y', 'x')]).waves)).toEqual([['p']]);
  });

  test('a dependency on an unknown id or on an item outside the plan does not hold an item back', () => {
    const plan = planWaves(
      [item('a', { depends_on: 'gone' }), item('b', { depends_on: on('d') }), item('d', { status: 'done' }), item('e', { version: 'v2' }), item('f', { depends_on: on('e') })],
      'v1',
    );
    expect(slugs(plan.waves)).toEqual([['a', 'b', 'f']]);
    expect(plan.blocked).toEqual([]);
  });

  test('only pending and todo items without a blocker, of the version asked, are planned', () => {
    const items = [
      item('a'),
      item('b', { status: 'todo' }),
      item('c', { status: 'in_progress' }),
      item('d', { blocker_kind: 'manual' }),
      item('e', { version: 'v2' }),
      item('f', { status: 'done' }),
    ];
    expect(planWaves(items, 'v1').planned).toEqual(new Set([on('a'), on('b')]));
    expect(planWaves(items).planned).toEqual(new Set([on('a'), on('b'), on('e')]));
  });

  test('an item behind a blocked item, a failure its stop mode cannot pass, or a blocked chain gets no wave', () => {
    const plan = planWaves([
      item('blocker', { blocker_kind: 'manual' }),
      item('behind', { depends_on: on('blocker') }),
      item('further', { depends_on: on('behind') }),
      item('broken', { status: 'failed' }),
      item('stops', { depends_on: on('broken'), failure_mode: 'stop' }),
      item('goes-on', { depends_on: on('broken') }),
      item('free'),
    ]);
    expect(plan.blocked.map((i) => i.slug)).toEqual(['behind', 'further', 'stops']);
    expect(slugs(plan.waves)).toEqual([['goes-on', 'free']]);
  });

  test('a finished item with a blocker left on it blocks nobody', () => {
    const plan = planWaves([item('old', { status: 'done', blocker_kind: 'manual' }), item('next', { depends_on: on('old') })]);
    expect(plan.blocked).toEqual([]);
    expect(slugs(plan.waves)).toEqual([['next']]);
  });

  test('within a wave items keep the serving order they were given, and the same input always gives the same plan', () => {
    const items = [item('z', { resources: ['r:1'] }), item('m'), item('a', { resources: ['r:1'] }), item('k', { depends_on: on('m') })];
    const plan = planWaves(items);
    expect(slugs(plan.waves)).toEqual([
      ['z', 'm'],
      ['a', 'k'],
    ]);
    expect(planWaves(items)).toEqual(plan);
    expect(items.map((i) => i.slug)).toEqual(['z', 'm', 'a', 'k']);
  });

  test('nothing to plan gives no wave', () => {
    expect(planWaves([item('a', { status: 'done' })])).toEqual({ planned: new Set(), waves: [], blocked: [], undeclared: 0 });
  });
});

describe('wave labels', () => {
  test('labels number on after the highest wave still in use', () => {
    expect(labelWaves([['a'], ['b']], 0)).toEqual([
      { label: 'wave-1', items: ['a'] },
      { label: 'wave-2', items: ['b'] },
    ]);
    expect(labelWaves([['a']], 7).map((w) => w.label)).toEqual(['wave-8']);
  });

  test('the highest wave number counts only wave-N labels', () => {
    expect(highestWaveNumber([])).toBe(0);
    expect(highestWaveNumber([null, 'wave-3', 'wave-12', 'wave-2', 'beta', 'wave-x', 'my-wave-40', 'wave-5b'])).toBe(12);
  });
});
