import { Session } from '../src/modules/sessions/session.entity';
import { SessionsSweeper } from '../src/modules/sessions/sessions.sweeper';
import { SprintItem } from '../src/modules/sprint/sprint-item.entity';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { buildIfStale, ServerProcess, startServerProcess } from './support/processes';
import { sprintClient } from './support/sprint-client';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';

/** Items drained by the 64-worker test; the benchmark (bench/claims.js) runs the full 10,000. */
const DRAIN_ITEMS = Number(process.env.BATON_SPRINT_DRAIN_ITEMS ?? 1000);
const DRAIN_WORKERS = 64;

describe.each(eachBackend())('sprint claims on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    api = sprintClient(run);
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('claim_sprint_item claims a given item: in_progress, claimed_at, the claimer recorded; claiming it again changes nothing', async () => {
    const projectId = await api.project('Claim One');
    const s = await api.session(projectId, { name: 'w1', kind: 'worker' });
    const item = await api.item(projectId, { title: 'Write the parser' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const result = await callTool(client, 'claim_sprint_item', { project_id: projectId, item_id: item.id, session_id: s.id });
      expect(result.isError).toBe(false);
      expect(result.value.claimed).toBe(true);
      expect(result.value.item).toMatchObject({ id: item.id, status: 'in_progress', claimed_by_session_id: s.id, claimant: 'ai' });
      expect(Date.parse(result.value.item.claimed_at)).toBeGreaterThanOrEqual(Date.parse(item.added_at));
      const again = await callTool(client, 'claim_sprint_item', { project_id: projectId, item_id: item.slug, session_id: s.id });
      expect(again.value).toMatchObject({ claimed: true, already_held: true });
      expect(again.value.item.claimed_at).toBe(result.value.item.claimed_at);
    } finally {
      await client.close();
    }
  });

  test('the next claimable item comes by priority (urgent, high, normal, low) then age; deferred and skipped tracks and blocked items are left out', async () => {
    const projectId = await api.project('Next Order');
    const s = await api.session(projectId, { kind: 'worker' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const add = async (title: string, extra: Record<string, unknown> = {}) =>
        (await callTool(client, 'add_sprint_item', { project_id: projectId, version: 'v1', title, ...extra })).value;
      const lowOld = await add('Alpha low chore', { priority: 'low' });
      const normal = await add('Bravo normal work');
      const urgent = await add('Charlie urgent fix', { priority: 'urgent' });
      const highOld = await add('Delta high task', { priority: 'high' });
      const highNew = await add('Echo high priority later', { priority: 'high' });
      await add('Foxtrot deferred lane', { priority: 'urgent', track: 'later' });
      await add('Golf skipped lane', { priority: 'urgent', track: 'never' });
      await add('Hotel manual blocker', { priority: 'urgent', blocker_kind: 'manual' });
      expect((await run.http.send('PUT', `/projects/${projectId}/sprint-tracks/later`, { state: 'deferred' })).status).toBe(200);
      expect((await callTool(client, 'set_sprint_track', { project_id: projectId, track: 'never', state: 'skipped' })).value.state).toBe('skipped');
      const order: string[] = [];
      for (;;) {
        const next = await callTool(client, 'claim_sprint_item', { project_id: projectId, session_id: s.id });
        if (!next.value.claimed) {
          expect(next.value).toMatchObject({ item: null, waiting: 3 });
          break;
        }
        order.push(next.value.item.id);
      }
      expect(order).toEqual([urgent.id, highOld.id, highNew.id, normal.id, lowOld.id]);
      const tracks = (await run.http.get(`/projects/${projectId}/sprint-tracks`)).body;
      expect(tracks).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'later', state: 'deferred', item_count: 1 })]));
      // A manual blocker only keeps an item out of the pick: named by id, it can be claimed.
      expect((await api.claim(projectId, 'hotel-manual-blocker', { session_id: s.id })).body.item.blocker_kind).toBe('manual');
      // A track set active again is handed out again.
      await run.http.send('PUT', `/projects/${projectId}/sprint-tracks/later`, { state: 'active' });
      expect((await api.claim(projectId, undefined, { session_id: s.id })).body.item.title).toBe('Foxtrot deferred lane');
    } finally {
      await client.close();
    }
  });

  test('each gate refuses with its own code and says which gate; prospect_bypass=1 lifts the prospect gate and nothing else', async () => {
    const projectId = await api.project('Gates');
    const worker = await api.session(projectId, { name: 'gate-worker', kind: 'worker' });
    const person = await api.session(projectId, { name: 'gate-person' });
    const holder = await api.session(projectId, { name: 'lock-holder' });
    const parent = await api.item(projectId, { title: 'Parent work first' });
    const future = new Date(Date.now() + 3600_000).toISOString();
    const refusal = async (body: Record<string, unknown>, claimer = worker.id, claimant?: string) => {
      const item = await api.item(projectId, { force: true, ...body });
      const res = await api.claim(projectId, item.id, { session_id: claimer, ...(claimant ? { claimant } : {}) });
      return { item, res };
    };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: 'Deferred one', deferred_until: future }, 'DEFERRED', 'deferred'],
      [{ title: 'Superseded one', blocker_kind: 'superseded' }, 'SUPERSEDED', 'superseded'],
      [{ title: 'Waiting one', depends_on: parent.slug }, 'DEPENDENCY_UNMET', 'depends_on'],
      [{ title: 'Unprospected one', touches_resources: ['file:src/gate.ts'] }, 'UNPROSPECTED', 'prospect'],
      [{ title: 'Milestone one', milestone_type: 'milestone' }, 'MILESTONE_NOT_CLAIMABLE', 'milestone'],
      [{ title: 'Human one', milestone_type: 'human' }, 'HUMAN_ONLY', 'human'],
      [{ title: 'Laned one', track: 'parked' }, 'TRACK_DEFERRED', 'track'],
    ];
    await run.http.send('PUT', `/projects/${projectId}/sprint-tracks/parked`, { state: 'deferred' });
    for (const [body, code, gate] of cases) {
      const { res } = await refusal(body);
      expect({ title: body.title, status: res.status, code: res.body.code, gate: res.body.gate }).toEqual({ title: body.title, status: 409, code, gate });
      expect(res.body.detail).toEqual(expect.any(String));
    }

    // File lock gate: a file the item touches is locked by another live session; the holder is named.
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      expect((await callTool(client, 'claim_file', { file_path: './src//locked.ts', session_id: holder.id })).value.claimed).toBe(true);
      const locked = await refusal({ title: 'Locked one', touches_resources: ['file:src/locked.ts'], prospect_bypass: 1 });
      expect(locked.res.body).toMatchObject({ code: 'FILE_LOCKED', gate: 'file_lock', file_path: 'src/locked.ts', holder_session_id: holder.id, holder_name: 'lock-holder' });
      expect(locked.res.body.detail).toContain('lock-holder');
      // The lock holder itself is not refused by its own lock.
      expect((await api.claim(projectId, locked.item.id, { session_id: holder.id })).body.claimed).toBe(true);
    } finally {
      await client.close();
    }

    // prospect_bypass=1 passes the prospect gate ...
    const bypassed = await refusal({ title: 'Bypassed one', touches_resources: ['file:src/free.ts'], prospect_bypass: 1 });
    expect(bypassed.res.status).toBe(200);
    // ... and nothing else: every other gate still refuses a bypassed item.
    for (const [body, code] of cases.filter(([, c]) => c !== 'UNPROSPECTED')) {
      const { res } = await refusal({ ...body, title: `${body.title} bypassed`, prospect_bypass: 1, touches_resources: ['file:src/other.ts'] });
      expect({ title: body.title, code: res.body.code }).toEqual({ title: body.title, code });
    }

    // A planner attaching locations lifts the prospect gate too.
    const prospected = await refusal({ title: 'Prospected later', touches_resources: ['file:src/p.ts'] });
    expect(prospected.res.body.code).toBe('UNPROSPECTED');
    const attached = await run.http.post(`/projects/${projectId}/sprint-items/${prospected.item.id}/prospect`, { locations: ['src/p.ts:10#parse'] });
    expect(attached.body).toMatchObject({ locations: ['src/p.ts:10#parse'], prospected_at: expect.any(String) });
    expect((await api.claim(projectId, prospected.item.id, { session_id: worker.id })).body.claimed).toBe(true);

    // Milestone and human items are claimable by a person.
    const milestone = await api.item(projectId, { title: 'Launch day marker', milestone_type: 'milestone' });
    expect((await api.claim(projectId, milestone.id, { session_id: person.id, claimant: 'human' })).body.item.claimant).toBe('human');
    // ... but a worker session cannot claim as a person.
    const human = await api.item(projectId, { title: 'Sign the contract', milestone_type: 'human' });
    expect((await api.claim(projectId, human.id, { session_id: worker.id, claimant: 'human' })).body.code).toBe('CLAIMANT_MISMATCH');

    // The dependency gate opens once the dependency is finished.
    const waiting = (await run.http.get(`/projects/${projectId}/sprint-items/waiting-one`)).body;
    await run.http.post(`/projects/${projectId}/sprint-items/${parent.id}/complete`, {});
    expect((await api.claim(projectId, waiting.id, { session_id: worker.id })).body.claimed).toBe(true);
  });

  test('a next-claim that finds nothing lists each waiting item by priority with every gate that holds it, as a claim by id would name it', async () => {
    const projectId = await api.project('Why Nothing');
    const worker = await api.session(projectId, { name: 'idle-worker', kind: 'worker' });
    const holder = await api.session(projectId, { name: 'lock-holder' });
    const parent = await api.item(projectId, { title: 'Parent work first', priority: 'urgent' });
    expect((await api.claim(projectId, parent.id, { session_id: holder.id })).body.claimed).toBe(true);
    await run.http.send('PUT', `/projects/${projectId}/sprint-tracks/parked`, { state: 'deferred' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      expect((await callTool(client, 'claim_file', { file_path: 'src/locked.ts', session_id: holder.id })).value.claimed).toBe(true);
      const future = new Date(Date.now() + 3600_000).toISOString();
      const add = (title: string, priority: string, extra: Record<string, unknown> = {}) => api.item(projectId, { title, priority, force: true, ...extra });
      const items = [
        await add('Deferred and unprospected', 'urgent', { deferred_until: future, touches_resources: ['file:src/later.ts'] }),
        await add('Superseded plan', 'high', { blocker_kind: 'superseded' }),
        await add('Manual contract', 'high', { blocker_kind: 'manual' }),
        await add('Child of parent', 'normal', { depends_on: parent.slug }),
        await add('Parked lane', 'normal', { track: 'parked' }),
        await add('Needs prospecting', 'normal', { touches_resources: ['file:src/gate.ts'] }),
        await add('Locked file work', 'low', { touches_resources: ['file:src/locked.ts'], prospect_bypass: 1 }),
        await add('Launch marker', 'low', { milestone_type: 'milestone' }),
        await add('Sign contract', 'low', { milestone_type: 'human' }),
      ];
      const expected: [string, Record<string, unknown>[]][] = [
        [
          'Deferred and unprospected',
          [
            { gate: 'deferred', code: 'DEFERRED', deferred_until: future },
            { gate: 'prospect', code: 'UNPROSPECTED', touches_resources: ['file:src/later.ts'] },
          ],
        ],
        ['Superseded plan', [{ gate: 'superseded', code: 'SUPERSEDED' }]],
        ['Manual contract', [{ gate: 'blocked', blocker_kind: 'manual' }]],
        ['Child of parent', [{ gate: 'depends_on', code: 'DEPENDENCY_UNMET', depends_on: parent.id, depends_on_slug: parent.slug, depends_on_status: 'in_progress' }]],
        ['Parked lane', [{ gate: 'track', code: 'TRACK_DEFERRED', track: 'parked', track_state: 'deferred' }]],
        ['Needs prospecting', [{ gate: 'prospect', code: 'UNPROSPECTED' }]],
        ['Locked file work', [{ gate: 'file_lock', code: 'FILE_LOCKED', file_path: 'src/locked.ts', holder_session_id: holder.id, holder_name: 'lock-holder' }]],
        ['Launch marker', [{ gate: 'milestone', code: 'MILESTONE_NOT_CLAIMABLE' }]],
        ['Sign contract', [{ gate: 'human', code: 'HUMAN_ONLY' }]],
      ];

      const rest = await api.claim(projectId, undefined, { session_id: worker.id });
      expect(rest.status).toBe(200);
      expect(rest.body).toMatchObject({ claimed: false, item: null, waiting: items.length, waiting_not_listed: 0 });
      const listed = rest.body.waiting_items as { item_id: string; title: string; gates: Record<string, unknown>[] }[];
      expect(listed.map((w) => [w.title, w.gates.map((g) => g.gate)])).toEqual(expected.map(([title, gates]) => [title, gates.map((g) => g.gate)]));
      for (const [i, [title, gates]] of expected.entries()) {
        expect(listed[i]).toMatchObject({ item_id: items[i].id, slug: items[i].slug, title, status: 'pending', gates });
        for (const gate of listed[i].gates) expect(gate.detail).toEqual(expect.any(String));
      }
      expect(listed[1].gates[0].detail).toContain('superseded');
      expect(listed[3].gates[0].detail).toContain(parent.slug);
      expect(listed[5].gates[0].detail).toContain(`/projects/${projectId}/sprint-items/${items[5].slug}/prospect`);
      expect(listed[5].gates[0].detail).toContain('prospect_bypass=1');
      expect(listed[6].gates[0].detail).toContain('lock-holder');

      // The MCP tool gives the same answer.
      const viaTool = await callTool(client, 'claim_sprint_item', { project_id: projectId, session_id: worker.id });
      expect(viaTool.isError).toBe(false);
      expect(viaTool.value).toEqual(rest.body);

      // Each reason is the refusal a claim of that item by id gets (the manual blocker only keeps it from the pick, so it is not tried).
      for (const entry of listed.filter((w) => w.gates[0].code !== undefined)) {
        const byId = await api.claim(projectId, entry.item_id, { session_id: worker.id });
        expect({ title: entry.title, status: byId.status, code: byId.body.code, gate: byId.body.gate }).toEqual({
          title: entry.title,
          status: 409,
          code: entry.gates[0].code,
          gate: entry.gates[0].gate,
        });
      }

      // A person passes the milestone and human gates: those two are not listed when claiming as human ... and one of them is claimed.
      const person = await api.session(projectId, { name: 'a-person' });
      const asPerson = await api.claim(projectId, undefined, { session_id: person.id, claimant: 'human' });
      expect(asPerson.body).toEqual({ claimed: true, item: expect.objectContaining({ id: items[7].id, claimant: 'human' }) });

      // Once the parent is finished its child is handed out, and the answer is the plain claim: no waiting fields.
      expect((await run.http.post(`/projects/${projectId}/sprint-items/${parent.id}/complete`, { session_id: holder.id })).status).toBe(200);
      const next = await api.claim(projectId, undefined, { session_id: worker.id });
      expect(next.status).toBe(200);
      expect(Object.keys(next.body).sort()).toEqual(['claimed', 'item']);
      expect(next.body.item).toMatchObject({ id: items[3].id, status: 'in_progress', claimed_by_session_id: worker.id });
    } finally {
      await client.close();
    }
  });

  test('the waiting list stops at 20 items in serving order (priority, then age) and counts the rest', async () => {
    const projectId = await api.project('Long Wait');
    const worker = await api.session(projectId, { kind: 'worker' });
    const future = new Date(Date.now() + 3600_000).toISOString();
    const priorities = ['low', 'normal', 'high', 'urgent'];
    const batch = await run.http.post(`/projects/${projectId}/sprint-batch`, {
      op: 'create',
      items: Array.from({ length: 26 }, (_, i) => ({ title: `waiting item ${i}`, version: 'v1', force: true, priority: priorities[i % 4], deferred_until: future })),
    });
    expect(batch.status).toBe(200);
    const created = batch.body.items as { id: string; priority: string; added_at: string }[];
    const rank = (p: string) => ['urgent', 'high', 'normal', 'low'].indexOf(p);
    // One batch is one transaction: its items share added_at, and the id settles the order.
    const servingOrder = [...created].sort((a, b) => rank(a.priority) - rank(b.priority) || Date.parse(a.added_at) - Date.parse(b.added_at) || (a.id < b.id ? -1 : 1));
    const res = await api.claim(projectId, undefined, { session_id: worker.id });
    expect(res.body).toMatchObject({ claimed: false, item: null, waiting: 26, waiting_not_listed: 6 });
    expect(res.body.waiting_items.map((w: { item_id: string }) => w.item_id)).toEqual(servingOrder.slice(0, 20).map((c) => c.id));
    expect(res.body.waiting_items.every((w: { gates: { gate: string }[] }) => w.gates.length === 1 && w.gates[0].gate === 'deferred')).toBe(true);
  });

  test('nothing waiting: the answer says so with an empty list', async () => {
    const projectId = await api.project('Empty Wait');
    const worker = await api.session(projectId, { kind: 'worker' });
    const res = await api.claim(projectId, undefined, { session_id: worker.id });
    expect(res.body).toEqual({ claimed: false, item: null, waiting: 0, detail: 'no item is waiting to be claimed', waiting_items: [], waiting_not_listed: 0 });
  });

  test('eight workers racing for one item: exactly one wins, seven are told who holds it', async () => {
    const projectId = await api.project('Race');
    const item = await api.item(projectId, { title: 'The one contested item' });
    const spare = await api.item(projectId, { title: 'Spare work nobody raced for' });
    const sessions = await Promise.all(Array.from({ length: 8 }, (_, i) => api.session(projectId, { name: `racer-${i}`, kind: 'worker' })));
    const clients = await Promise.all(sessions.map(() => connectMcp(run.testApp.url, run.token)));
    try {
      const results = await Promise.all(sessions.map((s, i) => callTool(clients[i], 'claim_sprint_item', { project_id: projectId, item_id: item.id, session_id: s.id })));
      const winners = results.filter((r) => !r.isError);
      expect(winners).toHaveLength(1);
      const winner = sessions.find((s) => s.id === winners[0].value.item.claimed_by_session_id)!;
      const losers = results.filter((r) => r.isError);
      expect(losers).toHaveLength(7);
      for (const loser of losers) {
        expect(loser.structured).toMatchObject({
          code: 'ALREADY_CLAIMED',
          claimed: false,
          claimed_by_session_id: winner.id,
          claimed_by_session_name: winner.name,
          next_item_id: spare.id,
        });
        expect(loser.text).toContain(winner.name);
      }
      expect((await api.get(projectId, item.id)).body).toMatchObject({ status: 'in_progress', claimed_by_session_id: winner.id });
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  test('release is conditional: only the claimer gives the item back; others are refused with the holder named', async () => {
    const projectId = await api.project('Release');
    const a = await api.session(projectId, { name: 'holder-a' });
    const b = await api.session(projectId, { name: 'other-b' });
    const item = await api.item(projectId, { title: 'Release me later' });
    await api.claim(projectId, item.id, { session_id: a.id });
    const refused = await run.http.post(`/projects/${projectId}/sprint-items/${item.id}/release`, { session_id: b.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CLAIM_MISMATCH', claimed_by_session_id: a.id });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const released = await callTool(client, 'release_sprint_item', { project_id: projectId, item_id: item.nickname, session_id: a.id });
      expect(released.value).toMatchObject({ released: true, item: { status: 'pending', claimed_at: null, claimed_by_session_id: null, stall_count: 0 } });
      const again = await callTool(client, 'release_sprint_item', { project_id: projectId, item_id: item.id, session_id: a.id });
      expect(again.structured).toMatchObject({ code: 'NOT_CLAIMED' });
    } finally {
      await client.close();
    }
  });

  test('an item whose claimer session is gone can be taken over; one held by a live session cannot', async () => {
    const projectId = await api.project('Takeover');
    const gone = await api.session(projectId, { name: 'vanished' });
    const live = await api.session(projectId, { name: 'alive' });
    const taker = await api.session(projectId, { name: 'taker' });
    const stale = await api.item(projectId, { title: 'Abandoned work' });
    const held = await api.item(projectId, { title: 'Actively held work' });
    await api.claim(projectId, stale.id, { session_id: gone.id });
    await api.claim(projectId, held.id, { session_id: live.id });
    // The claimer's session ended without its close hooks (a crash of an older instance): the item is still in progress.
    await inTenantDb(run.testApp, run.token, (m) => m.update(Session, { id: gone.id }, { status: 'closed', closed_at: new Date() }));
    expect((await api.get(projectId, stale.id)).body.status).toBe('in_progress');
    const takeover = await api.claim(projectId, stale.id, { session_id: taker.id });
    expect(takeover.status).toBe(200);
    expect(takeover.body.item).toMatchObject({ status: 'in_progress', claimed_by_session_id: taker.id });
    expect((await api.claim(projectId, held.id, { session_id: taker.id })).body).toMatchObject({ code: 'ALREADY_CLAIMED', claimed_by_session_id: live.id });
  });

  test('a session that closes or is swept re-queues its in-progress items (stall_count + 1); the third stall fails the item with a note', async () => {
    const projectId = await api.project('Stalls');
    const item = await api.item(projectId, { title: 'Flaky long job' });
    const other = await api.item(projectId, { title: 'Untouched neighbour item' });
    for (let stall = 1; stall <= 3; stall++) {
      const s = await api.session(projectId, { name: `stall-${stall}`, kind: 'worker' });
      expect((await api.claim(projectId, item.id, { session_id: s.id })).body.claimed).toBe(true);
      if (stall === 2) {
        await inTenantDb(run.testApp, run.token, (m) => m.update(Session, { id: s.id }, { last_seen: new Date(Date.now() - 2 * 3600_000) }));
        expect(await run.testApp.app.get(SessionsSweeper).sweepOnce()).toBeGreaterThanOrEqual(1);
      } else {
        expect((await run.http.post(`/sessions/${s.id}/close`)).status).toBe(200);
      }
      const after = (await api.get(projectId, item.id)).body;
      if (stall < 3) {
        expect(after).toMatchObject({ status: 'pending', stall_count: stall, claimed_by_session_id: null, claimed_at: null });
      } else {
        expect(after).toMatchObject({ status: 'failed', stall_count: 3 });
        expect(after.completed_at).toEqual(expect.any(String));
        expect(after.notes).toMatch(/ended 3 times without completing it/);
      }
    }
    expect((await api.get(projectId, other.id)).body).toMatchObject({ status: 'pending', stall_count: 0 });
  });

  test('claims refuse unknown, closed, foreign-project sessions and unknown items', async () => {
    const projectId = await api.project('Bad Claimers');
    const otherProject = await api.project('Elsewhere');
    const item = await api.item(projectId, { title: 'Someone take this' });
    const foreign = await api.session(otherProject);
    const closed = await api.session(projectId);
    await run.http.post(`/sessions/${closed.id}/close`);
    const unknown = await api.claim(projectId, item.id, { session_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'SESSION_NOT_FOUND' } });
    expect((await api.claim(projectId, item.id, { session_id: closed.id })).body.code).toBe('SESSION_CLOSED');
    expect((await api.claim(projectId, item.id, { session_id: foreign.id })).body.code).toBe('SESSION_PROJECT_MISMATCH');
    expect((await api.claim(projectId, undefined, { session_id: foreign.id })).body.code).toBe('SESSION_PROJECT_MISMATCH');
    const live = await api.session(projectId);
    expect((await api.claim(projectId, 'no-such-item', { session_id: live.id })).body.code).toBe('SPRINT_ITEM_NOT_FOUND');
    expect((await api.claim(otherProject, item.id, { session_id: foreign.id })).status).toBe(404);
    await run.http.post(`/projects/${projectId}/sprint-items/${item.id}/complete`, {});
    expect((await api.claim(projectId, item.id, { session_id: live.id })).body).toMatchObject({ code: 'ITEM_NOT_CLAIMABLE', status: 'done' });
    expect((await api.get(projectId, item.id)).body.status).toBe('done');
  });

  test(`${DRAIN_WORKERS} concurrent workers drain ${DRAIN_ITEMS} items: each claimed exactly once, none lost, none left in progress`, async () => {
    const projectId = await api.project('Drain');
    const batch = await run.http.post(`/projects/${projectId}/sprint-batch`, {
      op: 'create',
      items: Array.from({ length: DRAIN_ITEMS }, (_, i) => ({ title: `drain item ${i}`, version: 'v1', force: true, priority: ['urgent', 'high', 'normal', 'low'][i % 4] })),
    });
    expect(batch.status).toBe(200);
    const sessions = await Promise.all(Array.from({ length: DRAIN_WORKERS }, (_, i) => api.session(projectId, { name: `drain-${i}`, kind: 'worker' })));
    const claims = new Map<string, string[]>();
    const failures: string[] = [];
    await Promise.all(
      sessions.map(async (s) => {
        for (;;) {
          const res = await api.claim(projectId, undefined, { session_id: s.id });
          if (res.status !== 200) {
            failures.push(`claim ${res.status} ${res.text}`);
            return;
          }
          if (!res.body.claimed) return;
          const id: string = res.body.item.id;
          claims.set(id, [...(claims.get(id) ?? []), s.id]);
          const done = await run.http.post(`/projects/${projectId}/sprint-items/${id}/complete`, { session_id: s.id });
          if (done.status !== 200) failures.push(`complete ${done.status} ${done.text}`);
        }
      }),
    );
    expect(failures).toEqual([]);
    const duplicates = [...claims.values()].filter((holders) => holders.length > 1);
    expect(duplicates).toEqual([]);
    expect(claims.size).toBe(DRAIN_ITEMS);
    const rows = await inTenantDb(run.testApp, run.token, (m) => m.find(SprintItem, { select: { id: true, status: true }, where: { project_id: projectId } }));
    expect(rows).toHaveLength(DRAIN_ITEMS);
    expect(rows.filter((r) => r.status !== 'done')).toEqual([]);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(claims.keys()));
    expect((await run.http.get(`/projects/${projectId}/sprint/pending_count`)).body.pending_count).toBe(0);
  }, 300_000);
});

// Only Postgres lets a claimer pass over a row another transaction holds (FOR UPDATE SKIP LOCKED); SQLite has one writer at a time.
describe.each(eachBackend().filter(([name]) => name.startsWith('postgres')))('sprint claims contended on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('an item another claimer is taking at that moment is listed as contended, and is claimed once that claimer lets go', async () => {
    const api = sprintClient(run);
    const projectId = await api.project('Contended');
    const worker = await api.session(projectId, { kind: 'worker' });
    const item = await api.item(projectId, { title: 'Taken by a slow claimer' });
    const answer = await inTenantDb(run.testApp, run.token, async (m) => {
      await m.query('SELECT id FROM sprint_items WHERE id = $1 FOR UPDATE', [item.id]);
      return api.claim(projectId, undefined, { session_id: worker.id });
    });
    expect(answer.body).toMatchObject({ claimed: false, item: null, waiting: 1, waiting_not_listed: 0 });
    expect(answer.body.waiting_items).toEqual([
      {
        item_id: item.id,
        slug: item.slug,
        title: item.title,
        priority: 'normal',
        status: 'pending',
        gates: [{ gate: 'contended', detail: expect.stringContaining('claim again') }],
      },
    ]);
    expect((await api.claim(projectId, undefined, { session_id: worker.id })).body.item).toMatchObject({ id: item.id, status: 'in_progress' });
  });
});

describe.each(hostedBackend())('sprint claims across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's items, projects and sessions answer 404 to claims and releases", async () => {
    const api = sprintClient(run);
    const projectId = await api.project('Mine');
    const mine = await api.session(projectId);
    const item = await api.item(projectId, { title: 'Private work' });
    const other = await tenantClient(run.testApp, 'intruder');
    const intruder = other.http;
    const theirProject = (await intruder.post('/projects', { name: 'Theirs' })).body.id;
    const theirSession = (await intruder.post('/sessions/register', { project_id: theirProject })).body.id;
    expect((await intruder.post(`/projects/${projectId}/sprint-items/${item.id}/claim`, { session_id: theirSession })).status).toBe(404);
    expect((await intruder.post(`/projects/${theirProject}/sprint-items/${item.id}/claim`, { session_id: theirSession })).body.code).toBe('SPRINT_ITEM_NOT_FOUND');
    expect((await intruder.post(`/projects/${theirProject}/sprint-items/${item.id}/claim`, { session_id: mine.id })).body.code).toBe('SESSION_NOT_FOUND');
    expect((await intruder.post(`/projects/${projectId}/sprint-items/claim`, { session_id: theirSession })).status).toBe(404);
    expect((await intruder.post(`/projects/${projectId}/sprint-items/${item.id}/release`, { session_id: mine.id })).status).toBe(404);
    const client = await connectMcp(run.testApp.url, other.token);
    try {
      const claim = await callTool(client, 'claim_sprint_item', { project_id: theirProject, item_id: item.id, session_id: theirSession });
      expect(claim.structured?.code).toBe('SPRINT_ITEM_NOT_FOUND');
    } finally {
      await client.close();
    }
    expect((await api.get(projectId, item.id)).body).toMatchObject({ status: 'pending', claimed_by_session_id: null });
  });
});

describe('sprint claims across two server processes on one SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-two-processes-'));
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    buildIfStale();
    const env = { SERVICE_DB: join(dir, 'shared.db'), SERVICE_SWEEP_INTERVAL_SECONDS: '0' };
    servers.push(await startServerProcess(env, { timeoutMs: 30_000 }));
    servers.push(await startServerProcess(env, { timeoutMs: 30_000 }));
  }, 240_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  test('workers on both processes drain one sprint: every item claimed exactly once', async () => {
    const [one, two] = servers.map((s) => new Http(s.url));
    const projectId = (await one.post('/projects', { name: 'Shared File' })).body.id;
    const items = Array.from({ length: 300 }, (_, i) => ({ title: `shared item ${i}`, version: 'v1', force: true }));
    expect((await two.post(`/projects/${projectId}/sprint-batch`, { op: 'create', items })).status).toBe(200);
    // Set-up one at a time: only the claims race each other here.
    const workers: { http: Http; session: string }[] = [];
    for (let i = 0; i < 16; i++) {
      const http = i % 2 === 0 ? one : two;
      const res = await http.post('/sessions/register', { project_id: projectId, kind: 'worker' });
      expect(res.status).toBe(201);
      workers.push({ http, session: res.body.id });
    }
    const claims = new Map<string, number>();
    const failures: string[] = [];
    await Promise.all(
      workers.map(async ({ http, session }) => {
        for (;;) {
          const res = await http.post(`/projects/${projectId}/sprint-items/claim`, { session_id: session });
          if (res.status !== 200) {
            failures.push(`${res.status} ${res.text.slice(0, 200)}`);
            return;
          }
          if (!res.body.claimed) return;
          claims.set(res.body.item.id, (claims.get(res.body.item.id) ?? 0) + 1);
        }
      }),
    );
    expect(failures).toEqual([]);
    expect([...claims.values()].filter((n) => n > 1)).toEqual([]);
    expect(claims.size).toBe(300);
    const listed = (await one.get(`/projects/${projectId}/sprint-items?status=in_progress&limit=1000`)).body as { id: string }[];
    expect(new Set(listed.map((i) => i.id))).toEqual(new Set(claims.keys()));
  }, 240_000);
});
