import { sprintItem } from '../../../test/support/sprint-item';
import { ClaimGateName, NEXT_CLAIM_GATES } from './claim-sql';
import { describeWaiting, gatesHolding, heldBy, heldGates, WaitingDetails } from './sprint-waiting-gates.util';
import { SprintErrorCode } from './sprint.errors';

const NONE: WaitingDetails = { projectId: 'project-1', dependencies: new Map(), tracks: new Map(), locks: [] };
const held = (...gates: ClaimGateName[]) => new Set(gates);
const codes = (gates: { gate: string; code?: string }[]) => gates.map((g) => [g.gate, g.code]);

describe('heldGates', () => {
  test('a gate holds the item when its held_ column is 1, whether the driver answers a number or a string', () => {
    const row: Record<string, unknown> = Object.fromEntries(NEXT_CLAIM_GATES.map((g) => [`held_${g.gate}`, 0]));
    expect(heldGates(row)).toEqual(new Set());
    expect(heldGates({ ...row, held_deferred: 1, held_file_lock: '1', held_track: '0' })).toEqual(new Set(['deferred', 'file_lock']));
  });

  test('heldBy picks the items one gate holds, in the order given', () => {
    const candidates = [
      { item: sprintItem('a'), held: held('track') },
      { item: sprintItem('b'), held: held('depends_on', 'track') },
      { item: sprintItem('c'), held: held() },
    ];
    expect(heldBy(candidates, 'track').map((i) => i.slug)).toEqual(['a', 'b']);
    expect(heldBy(candidates, 'file_lock')).toEqual([]);
  });
});

describe('gatesHolding', () => {
  test('every gate holding an item is named, in the order of the next-claim gates, whatever order they were found in', () => {
    const item = sprintItem('a', { blocker_kind: 'manual', deferred_until: new Date('2026-04-01T00:00:00Z'), milestone_type: 'milestone' });
    expect(codes(gatesHolding(item, held('milestone', 'deferred', 'blocked'), NONE))).toEqual([
      ['blocked', undefined],
      ['deferred', SprintErrorCode.Deferred],
      ['milestone', SprintErrorCode.MilestoneNotClaimable],
    ]);
  });

  test('each gate carries the refusal a claim of the item by id would meet, with its fields', () => {
    const item = sprintItem('a', { deferred_until: new Date('2026-04-01T00:00:00Z'), track: 'ui', touches_resources: '["file:a.ts"]' });
    const [deferred, track, prospect] = gatesHolding(item, held('deferred', 'track', 'prospect'), { ...NONE, tracks: new Map([['ui', 'skipped']]) });
    expect(deferred).toEqual({
      gate: 'deferred',
      code: SprintErrorCode.Deferred,
      deferred_until: '2026-04-01T00:00:00.000Z',
      detail: 'sprint item a is deferred until 2026-04-01T00:00:00.000Z',
    });
    expect(track).toMatchObject({
      gate: 'track',
      code: SprintErrorCode.TrackDeferred,
      track: 'ui',
      track_state: 'skipped',
      detail: 'sprint item a is in track ui, which is skipped',
    });
    expect(prospect).toMatchObject({ gate: 'prospect', code: SprintErrorCode.Unprospected, touches_resources: ['file:a.ts'] });
    expect(prospect.detail).toContain('/projects/project-1/sprint-items/a/prospect');
  });

  test('a manual blocker names its kind and how to lift it', () => {
    const [gate] = gatesHolding(sprintItem('a', { blocker_kind: 'manual' }), held('blocked'), NONE);
    expect(gate.gate).toBe('blocked');
    expect(gate.blocker_kind).toBe('manual');
    expect(gate.code).toBeUndefined();
    expect(gate.detail).toMatch(/^sprint item a has blocker_kind manual .*clear blocker_kind once the action is done$/);
  });

  test('a track with no state recorded any more is said to be not active', () => {
    const [gate] = gatesHolding(sprintItem('a', { track: 'gone' }), held('track'), NONE);
    expect(gate).toMatchObject({ gate: 'track', track_state: 'not active' });
  });

  test('a dependency is named with its status; a failed one says the failure mode stops the item; a deleted one says so', () => {
    const dependencies = new Map([
      ['id-open', sprintItem('open', { status: 'in_progress' })],
      ['id-broken', sprintItem('broken', { status: 'failed' })],
    ]);
    const details = { ...NONE, dependencies };
    const [open] = gatesHolding(sprintItem('a', { depends_on: 'id-open' }), held('depends_on'), details);
    expect(open).toMatchObject({ gate: 'depends_on', code: SprintErrorCode.DependencyUnmet, depends_on: 'id-open', depends_on_slug: 'open', depends_on_status: 'in_progress' });
    expect(open.detail).toBe('sprint item a depends on open (id-open), which is in_progress, not finished');
    const [broken] = gatesHolding(sprintItem('b', { depends_on: 'id-broken', failure_mode: 'stop' }), held('depends_on'), details);
    expect(broken.detail).toBe("sprint item b depends on broken (id-broken), which failed and this item's failure_mode is stop");
    const [gone] = gatesHolding(sprintItem('c', { depends_on: 'id-gone' }), held('depends_on'), details);
    expect(gone).toEqual({ gate: 'depends_on', code: SprintErrorCode.DependencyUnmet, depends_on: 'id-gone', detail: 'sprint item c depends on id-gone, which no longer exists' });
  });

  test('the file lock gate is named once per locked file of the item, with its holder; a holder without a name is named by its id', () => {
    const locks = [
      { item_id: 'id-a', file_path: 'src/a.ts', session_id: 's1', session_name: 'ada', expires_at: '2026-03-01 10:00:00' },
      { item_id: 'id-b', file_path: 'src/b.ts', session_id: 's2', session_name: 'bob', expires_at: new Date('2026-03-01T10:00:00Z') },
      { item_id: 'id-a', file_path: 'src/c.ts', session_id: 's3', session_name: null, expires_at: new Date('2026-03-01T11:00:00Z') },
    ];
    const gates = gatesHolding(sprintItem('a'), held('file_lock'), { ...NONE, locks });
    expect(gates.map((g) => [g.file_path, g.holder_name, g.expires_at])).toEqual([
      ['src/a.ts', 'ada', '2026-03-01T10:00:00.000Z'],
      ['src/c.ts', 's3', '2026-03-01T11:00:00.000Z'],
    ]);
    expect(gates[0]).toMatchObject({ gate: 'file_lock', code: SprintErrorCode.FileLocked, holder_session_id: 's1' });
  });

  test('an item no gate held when it was read is named contended', () => {
    expect(gatesHolding(sprintItem('a'), held(), NONE)).toEqual([
      { gate: 'contended', detail: 'sprint item a passed every gate when this answer was read: another claimer was taking it, or it became claimable a moment ago; claim again' },
    ]);
  });

  test('an item the file lock gate held whose lock has gone since is contended too', () => {
    expect(codes(gatesHolding(sprintItem('a'), held('file_lock'), NONE))).toEqual([['contended', undefined]]);
  });
});

describe('describeWaiting', () => {
  test('each candidate in the order given, with what identifies it and its gates', () => {
    const listed = describeWaiting(
      [
        { item: sprintItem('b', { priority: 'high', status: 'todo', milestone_type: 'human' }), held: held('human') },
        { item: sprintItem('a'), held: held('superseded') },
      ],
      NONE,
    );
    expect(listed.map(({ gates, ...rest }) => [rest, codes(gates)])).toEqual([
      [{ item_id: 'id-b', slug: 'b', title: 'Work on b', priority: 'high', status: 'todo' }, [['human', SprintErrorCode.HumanOnly]]],
      [{ item_id: 'id-a', slug: 'a', title: 'Work on a', priority: 'normal', status: 'pending' }, [['superseded', SprintErrorCode.Superseded]]],
    ]);
  });
});
