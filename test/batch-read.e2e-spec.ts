import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomUUID } from 'node:crypto';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';

describe.each(eachBackend())('batch_read on %s', (_name, backend) => {
  let run: RunningBackend;
  let mcp: Client;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_MCP_RATE_LIMIT: '1000000' });
    mcp = await connectMcp(run.testApp.url, run.token);
  });
  afterAll(async () => {
    await mcp?.close();
    await run?.stop();
  });

  test('several reads in one call answer as their own tools do, in order, with keys echoed', async () => {
    const project = await createProject(run.http, 'Batch');
    const session = (await callTool(mcp, 'start_session', { project_id: project, name: 'reader' })).value.session_id;
    const item = (await callTool(mcp, 'add_sprint_item', { project_id: project, title: 'Batch item one', version: 'v1' })).value;
    await callTool(mcp, 'send_message', { project_id: project, to_session_id: session, body: 'hello reader' });
    await callTool(mcp, 'log_decision', { project_id: project, title: 'Use batch reads' });
    const reads = [
      { read: 'project', args: { project_id: project }, key: 'p' },
      { read: 'goal', args: { project_id: project } },
      { read: 'sprint_items', args: { project_id: project } },
      { read: 'sprint_item', args: { project_id: project, item_id: item.id } },
      { read: 'sessions', args: { project_id: project } },
      { read: 'locks', args: { project_id: project } },
      { read: 'hitl', args: { project_id: project } },
      { read: 'messages', args: { project_id: project } },
      { read: 'decisions', args: { project_id: project } },
      { read: 'profile', args: { project_id: project } },
      { read: 'projects' },
    ];
    const batch = await callTool(mcp, 'batch_read', { reads });
    expect(batch.isError).toBe(false);
    expect(batch.value.answered).toBe(reads.length);
    expect(batch.value.results.map((r: { read: string; ok: boolean }) => [r.read, r.ok])).toEqual(reads.map((r) => [r.read, true]));
    const [p, , items, one, sessions, , , messages, decisions, profile, projects] = batch.value.results.map((r: { result: unknown }) => r.result);
    expect(batch.value.results[0].key).toBe('p');
    expect(p).toEqual((await callTool(mcp, 'get_project', { project_id: project })).value);
    expect(items.map((i: { id: string }) => i.id)).toEqual([item.id]);
    expect(one.id).toBe(item.id);
    expect(JSON.stringify(sessions)).toContain(session);
    expect(JSON.stringify(messages)).toContain('hello reader');
    expect(JSON.stringify(decisions)).toContain('Use batch reads');
    // A project with no profile layer resolves to the legacy defaults, without error.
    expect(profile).toMatchObject({ executable: true, degraded: false });
    expect(JSON.stringify(projects)).toContain(project);
    // The messages read moved no cursor: the session still receives the message.
    const received = await callTool(mcp, 'receive_messages', { project_id: project, session_id: session });
    expect(received.value.messages.map((m: { body: string }) => m.body)).toEqual(['hello reader']);
  });

  test('a refused read is reported alone, with the same detail and code its own tool gives; the others are answered', async () => {
    const project = await createProject(run.http, 'Batch refusals');
    const missing = randomUUID();
    const batch = await callTool(mcp, 'batch_read', {
      reads: [
        { read: 'project', args: { project_id: missing } },
        { read: 'goal', args: { project_id: project } },
        { read: 'sprint_item', args: { project_id: project, item_id: 'NOT A REF' } },
        { read: 'hitl_request', args: { request_id: randomUUID(), wait: 5 } },
        { read: 'messages', args: { project_id: project, limit: 0 } },
        { read: 'sessions', args: { project_id: project, extra: true } },
      ],
    });
    expect(batch.isError).toBe(false);
    const alone = await callTool(mcp, 'get_project', { project_id: missing });
    expect(batch.value.results[0]).toMatchObject({ read: 'project', ok: false, status: 404, detail: alone.structured?.detail, code: alone.structured?.code });
    expect(batch.value.results[1]).toMatchObject({ read: 'goal', ok: true });
    expect(batch.value.results[2]).toMatchObject({ ok: false, status: 400, detail: expect.stringContaining('item_id') });
    expect(batch.value.results[3]).toMatchObject({ ok: false, status: 400, detail: expect.stringContaining('wait is not allowed in batch_read') });
    expect(batch.value.results[4]).toMatchObject({ ok: false, status: 400, detail: expect.stringContaining('limit') });
    expect(batch.value.results[5]).toMatchObject({ ok: false, status: 400, detail: expect.stringContaining('extra') });
    expect([batch.value.answered, batch.value.refused]).toEqual([1, 5]);
  });

  test('the batch itself is refused whole when malformed: no reads, over the cap, an unknown read, args not an object', async () => {
    const project = await createProject(run.http, 'Batch caps');
    const over = Array.from({ length: 21 }, () => ({ read: 'goal', args: { project_id: project } }));
    for (const [args, detail] of [
      [{ reads: [] }, 'at least one read'],
      [{ reads: over }, 'at most 20 reads'],
      [{ reads: [{ read: 'profile_layers', args: {} }] }, 'read must be one of'],
      [{ reads: [{ read: 'goal', args: [project] }] }, 'args must be a JSON object'],
      [{}, 'reads'],
    ] as const) {
      const res = await callTool(mcp, 'batch_read', args);
      expect(res.isError).toBe(true);
      expect(res.text).toContain(detail);
    }
    const exactly = await callTool(mcp, 'batch_read', { reads: over.slice(0, 20) });
    expect(exactly.value.answered).toBe(20);
  });
});

describe.each(hostedBackend())('batch_read across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("a read of another tenant's project is refused alone, as get_project refuses it, and the caller's own reads are answered", async () => {
    const other = await tenantClient(run.testApp, 'other');
    const theirs = await createProject(other.http, 'Their secret project');
    const mine = await createProject(run.http, 'My project');
    const mcp = await connectMcp(run.testApp.url, run.token);
    try {
      const batch = await callTool(mcp, 'batch_read', {
        reads: [
          { read: 'project', args: { project_id: mine } },
          { read: 'project', args: { project_id: theirs } },
          { read: 'sprint_items', args: { project_id: theirs } },
          { read: 'projects' },
        ],
      });
      const alone = await callTool(mcp, 'get_project', { project_id: theirs });
      expect(alone.isError).toBe(true);
      expect(batch.value.results[0]).toMatchObject({ ok: true, result: { id: mine } });
      expect(batch.value.results[1]).toMatchObject({ ok: false, status: 404, detail: alone.structured?.detail, code: alone.structured?.code });
      expect(batch.value.results[2]).toMatchObject({ ok: false, status: 404 });
      expect(batch.value.results[3].ok).toBe(true);
      expect(JSON.stringify(batch.value)).not.toContain('Their secret project');
    } finally {
      await mcp.close();
    }
  });
});
