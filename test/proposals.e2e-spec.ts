import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';

describe.each(eachBackend())('workspace proposals on %s', (_name, backend) => {
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

  const tool = (name: string, args: Record<string, unknown> = {}) => callTool(mcp, name, args);
  async function propose(title: string, body = '') {
    const res = await tool('add_workspace_proposal', { title, body });
    expect(res.isError).toBe(false);
    return res.value;
  }
  const advance = (id: string, direction?: 'forward' | 'back') => tool('advance_proposal_status', { proposal_id: id, ...(direction ? { direction } : {}) });

  test('a new proposal is raw; it advances raw → investigating → rejected and moves back through the chain one step at a time', async () => {
    const p = await propose('Share one lint config across repos', 'Every repo drifts');
    expect(p).toMatchObject({ id: expect.any(String), title: 'Share one lint config across repos', body: 'Every repo drifts', status: 'raw', sprint_item_id: null });
    expect((await advance(p.id)).value).toMatchObject({ status: 'investigating', previous_status: 'raw' });
    expect((await advance(p.id, 'forward')).value).toMatchObject({ status: 'rejected', previous_status: 'investigating' });
    const pastEnd = await advance(p.id);
    expect(pastEnd.isError).toBe(true);
    expect(pastEnd.structured).toMatchObject({ code: 'PROPOSAL_BAD_TRANSITION', status: 'rejected' });
    expect((await advance(p.id, 'back')).value).toMatchObject({ status: 'investigating' });
    expect((await advance(p.id, 'back')).value).toMatchObject({ status: 'raw' });
    const beforeStart = await advance(p.id, 'back');
    expect(beforeStart.isError).toBe(true);
    expect(beforeStart.text).toContain('start of the review chain');
    const listed = (await tool('get_workspace_proposals', { status: 'raw' })).value;
    expect(listed.proposals.map((x: { id: string }) => x.id)).toContain(p.id);
  });

  test('promote from raw or investigating creates a linked pending sprint item; rejected and promoted proposals refuse, and a promoted one is final', async () => {
    const project = await createProject(run.http, 'Proposal target');
    const fromRaw = await propose('Nightly dependency audit', 'Run npm audit each night');
    const promoted = await tool('promote_proposal', { proposal_id: fromRaw.id, project_id: project });
    expect(promoted.isError).toBe(false);
    expect(promoted.value.proposal).toMatchObject({ id: fromRaw.id, status: 'promoted', promoted_project_id: project, sprint_item_id: promoted.value.sprint_item.id });
    expect(promoted.value.sprint_item).toMatchObject({ title: 'Nightly dependency audit', status: 'pending', version: 'backlog' });
    const item = await run.http.get(`/projects/${project}/sprint-items/${promoted.value.sprint_item.id}`);
    expect(item.status).toBe(200);
    expect(item.body.notes).toContain(fromRaw.id);

    const investigating = await propose('Shared CI cache');
    await advance(investigating.id);
    const second = await tool('promote_proposal', { proposal_id: investigating.id, project_id: project, version: 'v2.0' });
    expect(second.value.sprint_item).toMatchObject({ title: 'Shared CI cache', version: 'v2.0' });

    const again = await tool('promote_proposal', { proposal_id: fromRaw.id, project_id: project });
    expect(again.structured).toMatchObject({ code: 'PROPOSAL_NOT_REVIEWABLE', status: 'promoted' });
    for (const direction of ['forward', 'back'] as const) expect((await advance(fromRaw.id, direction)).structured).toMatchObject({ code: 'PROPOSAL_BAD_TRANSITION' });

    const rejected = await propose('Rewrite everything in Rust');
    await advance(rejected.id);
    await advance(rejected.id);
    const refused = await tool('promote_proposal', { proposal_id: rejected.id, project_id: project });
    expect(refused.structured).toMatchObject({ code: 'PROPOSAL_NOT_REVIEWABLE', status: 'rejected' });
    const items = (await run.http.get(`/projects/${project}/sprint-items?limit=200`)).body;
    expect(items.map((i: { title: string }) => i.title).sort()).toEqual(['Nightly dependency audit', 'Shared CI cache']);
  });

  test('a proposal is never claimable: claim_sprint_item with its id finds nothing, and there is no REST route for proposals', async () => {
    const project = await createProject(run.http, 'Claims');
    const p = await propose('Claim me if you can');
    const claim = await tool('claim_sprint_item', { project_id: project, item_id: p.id });
    expect(claim.isError).toBe(true);
    expect(JSON.stringify(claim.structured)).not.toContain('"claimed":true');
    expect((await run.http.get('/workspace/proposals')).status).toBe(404);
    expect((await run.http.post('/workspace/proposals', { title: 'x' })).status).toBe(404);
  });

  test('bad input is refused naming the field and changes nothing', async () => {
    const before = (await tool('get_workspace_proposals', {})).value.total;
    for (const [name, args, field] of [
      ['add_workspace_proposal', {}, 'title'],
      ['add_workspace_proposal', { title: 'x'.repeat(301) }, 'title'],
      ['add_workspace_proposal', { title: 'ok', extra: 1 }, 'extra'],
      ['advance_proposal_status', { proposal_id: 'nope' }, 'proposal_id'],
      ['advance_proposal_status', { proposal_id: randomUUID(), direction: 'sideways' }, 'direction'],
      ['promote_proposal', { proposal_id: randomUUID() }, 'project_id'],
      ['get_workspace_proposals', { status: 'maybe' }, 'status'],
      ['get_workspace_proposals', { limit: 0 }, 'limit'],
    ] as const) {
      const res = await tool(name, args);
      expect(res.isError).toBe(true);
      expect(res.text).toContain(field);
    }
    expect((await advance(randomUUID())).structured).toMatchObject({ code: 'PROPOSAL_NOT_FOUND' });
    const p = await propose('Valid one');
    const missingProject = await tool('promote_proposal', { proposal_id: p.id, project_id: randomUUID() });
    expect(missingProject.structured).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    expect((await tool('get_workspace_proposals', { status: 'raw' })).value.proposals.find((x: { id: string }) => x.id === p.id).status).toBe('raw');
    expect((await tool('get_workspace_proposals', {})).value.total).toBe(before + 1);
  });
});

describe.each(hostedBackend())('workspace proposals across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's proposal ids answer as missing, and its listing is empty", async () => {
    const mine = await connectMcp(run.testApp.url, run.token);
    const other = await tenantClient(run.testApp, 'other');
    const theirs = await connectMcp(run.testApp.url, other.token);
    try {
      const p = (await callTool(mine, 'add_workspace_proposal', { title: 'Tenant A idea' })).value;
      const theirProject = await createProject(other.http, 'Theirs');
      expect((await callTool(theirs, 'get_workspace_proposals')).value).toEqual({ proposals: [], total: 0 });
      expect((await callTool(theirs, 'advance_proposal_status', { proposal_id: p.id })).structured).toMatchObject({ code: 'PROPOSAL_NOT_FOUND' });
      expect((await callTool(theirs, 'promote_proposal', { proposal_id: p.id, project_id: theirProject })).structured).toMatchObject({ code: 'PROPOSAL_NOT_FOUND' });
      expect((await callTool(mine, 'get_workspace_proposals')).value.proposals[0]).toMatchObject({ id: p.id, status: 'raw' });
    } finally {
      await mine.close();
      await theirs.close();
    }
  });
});
