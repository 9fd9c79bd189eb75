import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { DataSource } from 'typeorm';
import { SHARED_DATA_SOURCE } from '../src/database/database.module';
import { LOCAL_TENANT_ID } from '../src/modules/tenants/local-tenant';
import { a2aMessage } from './support/a2a-client';
import { backends, eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { freePort } from './support/processes';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { waitUntil } from './support/wait';

/** The workspace a suite works in: a fresh tenant hosted (its id is needed), the local one self-hosted. */
async function workspaceOf(run: RunningBackend): Promise<{ tenant_id: string; http: Http; token?: string }> {
  if (!run.token) return { tenant_id: LOCAL_TENANT_ID, http: run.http };
  return tenantClient(run.testApp, `views-${randomUUID().slice(0, 6)}`);
}

describe.each(eachBackend())('agent interfaces on %s', (_name, backend) => {
  let run: RunningBackend;
  let ws: { tenant_id: string; http: Http; token?: string };
  let mcp: Client;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_MCP_RATE_LIMIT: '1000000' });
    ws = await workspaceOf(run);
    mcp = await connectMcp(run.testApp.url, ws.token);
  });
  afterAll(async () => {
    await mcp?.close();
    await run?.stop();
  });

  const tool = (name: string, args: Record<string, unknown> = {}) => callTool(mcp, name, args);

  test('control-plane relationships list dependencies, subtask parents, subproject parents and proposal → item, with ids and titles only; paginated', async () => {
    const parent = await createProject(ws.http, 'Parent project');
    const child = await createProject(ws.http, 'Child project');
    expect((await tool('set_project_parent', { project_id: child, parent_id: parent })).isError).toBe(false);
    const first = (await tool('add_sprint_item', { project_id: parent, title: 'Lay the foundation', version: 'v1' })).value;
    const second = (await tool('add_sprint_item', { project_id: parent, title: 'Raise the walls', version: 'v1', depends_on: first.id })).value;
    const sub = (await tool('add_subtask', { project_id: parent, parent_id: first.id, title: 'Pour the concrete' })).value;
    const proposal = (await tool('add_workspace_proposal', { title: 'Build a garage', body: 'body text' })).value;
    const promoted = (await tool('promote_proposal', { proposal_id: proposal.id, project_id: parent })).value;
    const all = (await ws.http.get('/control-plane/relationships?limit=200')).body;
    expect(all.total).toBe(4);
    const ref = (type: string, id: string, title: string) => ({ type, id, title });
    expect(all.items).toEqual(
      expect.arrayContaining([
        { kind: 'depends_on', from: ref('sprint_item', second.id, 'Raise the walls'), to: ref('sprint_item', first.id, 'Lay the foundation') },
        { kind: 'parent', from: ref('sprint_item', sub.id, 'Pour the concrete'), to: ref('sprint_item', first.id, 'Lay the foundation') },
        {
          kind: 'project_parent',
          from: { type: 'project', id: child, title: expect.stringContaining('Child project') },
          to: { type: 'project', id: parent, title: expect.stringContaining('Parent project') },
        },
        { kind: 'promoted_to', from: ref('proposal', proposal.id, 'Build a garage'), to: ref('sprint_item', promoted.sprint_item.id, 'Build a garage') },
      ]),
    );
    const page1 = (await ws.http.get('/control-plane/relationships?limit=3')).body;
    const page2 = (await ws.http.get(`/control-plane/relationships?limit=3&offset=${page1.next_offset}`)).body;
    expect([page1.items.length, page1.next_offset, page2.items.length, page2.next_offset]).toEqual([3, 3, 1, null]);
    expect([...page1.items, ...page2.items]).toEqual(all.items);
    const proposals = (await ws.http.get('/control-plane/proposals')).body;
    expect(proposals.items[0]).toEqual({
      id: proposal.id,
      title: 'Build a garage',
      status: 'promoted',
      sprint_item_id: promoted.sprint_item.id,
      promoted_project_id: parent,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  test('control-plane artifacts list handoffs the service produced (mode, size, no content or file path), newest first', async () => {
    const project = await createProject(ws.http, 'Artifacts');
    const session = (await tool('start_session', { project_id: project })).value.session_id;
    const handoff = await tool('generate_handoff', { project_id: project, session_id: session, mode: 'goal' });
    expect(handoff.isError).toBe(false);
    const artifacts = (await ws.http.get('/control-plane/artifacts')).body;
    const mine = artifacts.items.filter((a: { project_id: string }) => a.project_id === project);
    expect(mine).toEqual([
      {
        kind: 'handoff',
        id: expect.any(String),
        project_id: project,
        title: 'goal handoff',
        bytes: expect.any(Number),
        count: null,
        status: 'issued',
        created_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(artifacts)).not.toMatch(/\.md"|file_name|content/);
  });

  test('control-plane views refuse bad paging with a detail', async () => {
    for (const path of ['artifacts', 'proposals', 'relationships']) {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=201', 'limit'],
        ['offset=-1', 'offset'],
        ['limit=abc', 'limit'],
        ['page=2', 'page'],
      ]) {
        const res = await ws.http.get(`/control-plane/${path}?${query}`);
        expect([res.status, res.body.detail]).toEqual([400, expect.stringContaining(field)]);
      }
    }
  });

  test('document peeks record each structure view (REST and MCP): who, which project, when; the last 50 are kept', async () => {
    const project = await createProject(ws.http, 'Peeked');
    expect((await ws.http.send('PUT', `/projects/${project}/files/README.md`, { content: '# Title\n\nsecret words' })).status).toBe(201);
    expect((await ws.http.get(`/projects/${project}/document-structure`)).status).toBe(200);
    expect((await tool('get_document_structure', { project_id: project })).isError).toBe(false);
    const peeks = (await ws.http.get('/document-peeks')).body;
    expect(peeks.peeks.slice(0, 2)).toEqual([
      {
        id: expect.any(String),
        project_id: project,
        project_name: expect.stringContaining('Peeked'),
        viewer: 'mcp',
        via: 'mcp',
        document_count: expect.any(Number),
        created_at: expect.any(String),
      },
      expect.objectContaining({ project_id: project, via: 'rest', viewer: ws.token ? 'token' : 'local' }),
    ]);
    for (let i = 0; i < 50; i++) await ws.http.get(`/projects/${project}/document-structure`);
    const kept = (await ws.http.get('/document-peeks')).body;
    expect(kept.total).toBe(50);
    expect(kept.peeks.every((p: { via: string }) => p.via === 'rest')).toBe(true);
    expect((await ws.http.get(`/projects/${randomUUID()}/document-structure`)).status).toBe(404);
    expect((await ws.http.get('/document-peeks')).body.total).toBe(50);
  });

  test('failover-status: not degraded normally; true with database_read_only while the database refuses writes', async () => {
    const anonymous = new Http(run.testApp.url);
    const normal = await anonymous.get('/failover-status');
    expect(normal.status).toBe(200);
    expect(normal.body).toMatchObject({ failover: false, reasons: [], pubsub: { configured: false, messaging: 'polling' }, database: { read_only: false, reachable: true } });
    if (run.db) return; // Postgres: the read-only suite below.
    const source = run.testApp.app.get<DataSource>(SHARED_DATA_SOURCE);
    await source.query('PRAGMA query_only = 1');
    try {
      await waitUntil(async () => (await anonymous.get('/failover-status')).body.failover === true, 10_000, 'read-only reported');
      expect((await anonymous.get('/failover-status')).body).toMatchObject({ failover: true, reasons: ['database_read_only'], database: { read_only: true } });
    } finally {
      await source.query('PRAGMA query_only = 0');
    }
    await waitUntil(async () => (await anonymous.get('/failover-status')).body.failover === false, 10_000, 'writable again');
  });

  test('pkg-guard: known-malicious releases, typo-squats and deny rules are refused with a reason; allow rules and ordinary packages pass', async () => {
    const check = (body: Record<string, unknown>) => ws.http.post('/pkg-guard/check', body);
    expect((await check({ name: 'express', version: '4.19.2' })).body).toMatchObject({ allowed: true, verdict: 'allow', rule: 'default', ecosystem: 'npm' });
    expect((await check({ name: 'event-stream', version: '3.3.6' })).body).toMatchObject({ allowed: false, rule: 'known_malicious' });
    expect((await check({ name: 'reqeusts', ecosystem: 'pypi' })).body).toMatchObject({ allowed: false, rule: 'typosquat', matched: 'requests' });
    const put = await ws.http.send('PUT', '/pkg-guard/rules', {
      rules: [
        { pattern: 'left-pad', action: 'deny', reason: 'vendored in-house' },
        { pattern: 'expresss', action: 'allow', reason: 'our fork' },
        { pattern: '@acme/*', action: 'allow' },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.body.rules).toHaveLength(3);
    expect((await check({ name: 'left-pad', version: '1.3.0' })).body).toMatchObject({ allowed: false, rule: 'deny_rule', reason: 'vendored in-house' });
    expect((await check({ name: 'expresss' })).body).toMatchObject({ allowed: true, rule: 'allow_rule' });
    expect((await ws.http.get('/pkg-guard/rules')).body.rules.map((r: { pattern: string }) => r.pattern)).toEqual(['@acme/*', 'expresss', 'left-pad']);
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: '../etc/passwd' }, 'name'],
      [{ name: 'ok', version: '1.0 || rm -rf' }, 'version'],
      [{ name: 'ok', ecosystem: 'cargo' }, 'ecosystem'],
      [{ name: 'ok', extra: 1 }, 'extra'],
    ] as const) {
      const res = await check(body);
      expect([res.status, res.body.detail]).toEqual([400, expect.stringContaining(field)]);
    }
    for (const [body, field] of [
      [{ rules: [{ pattern: 'a', action: 'maybe' }] }, 'action'],
      [{ rules: [{ pattern: 'a b', action: 'deny' }] }, 'pattern'],
      [
        {
          rules: [
            { pattern: 'a', action: 'deny' },
            { pattern: 'A', action: 'allow' },
          ],
        },
        'listed twice',
      ],
      [{ rules: 'deny all' }, 'rules'],
    ] as const) {
      const res = await ws.http.send('PUT', '/pkg-guard/rules', body);
      expect([res.status, res.body.detail]).toEqual([400, expect.stringContaining(field)]);
    }
    expect((await ws.http.get('/pkg-guard/rules')).body.rules).toHaveLength(3);
  });

  test('/mcp/vendor lists only the curated tools, runs them, refuses the rest; the vendor diagnostics count it', async () => {
    const project = await createProject(ws.http, 'Vendor view');
    const vendor = await connectMcp(run.testApp.url, ws.token, 'http', undefined, '/mcp/vendor');
    try {
      const listed = (await vendor.listTools()).tools.map((t) => t.name);
      expect(listed).toEqual(expect.arrayContaining(['list_projects', 'get_context_block', 'add_note', 'request_hitl']));
      expect(listed).not.toEqual(expect.arrayContaining(['delete_project']));
      expect(listed.filter((n) => /^(delete_|claim_|complete_|save_profile|purge_)/.test(n))).toEqual([]);
      expect((await callTool(vendor, 'get_project', { project_id: project })).value.id).toBe(project);
      const refused = await callTool(vendor, 'delete_project', { project_id: project });
      expect(refused.isError).toBe(true);
      expect(refused.structured).toMatchObject({ code: 'VENDOR_TOOL_NOT_OFFERED' });
      expect((await ws.http.get(`/projects/${project}`)).status).toBe(200);
      expect((await callTool(vendor, 'get_project', { project_id: randomUUID() })).isError).toBe(true);
    } finally {
      await vendor.close();
    }
    const diagnostics = await ws.http.post(`/tunnel/vendor/diagnostics/${ws.tenant_id}`);
    expect(diagnostics.status).toBe(200);
    expect(diagnostics.body).toMatchObject({
      tenant_id: ws.tenant_id,
      vendor: { adapter: 'mcp_vendor', enabled: true, endpoint: expect.stringMatching(/\/mcp\/vendor$/), tool_calls: 2, tool_errors: 1, refused_tools: 1 },
    });
    expect((await ws.http.get('/mcp/vendor')).status).toBe(405);
    expect((await ws.http.post(`/tunnel/vendor/diagnostics/not-a-uuid`)).status).toBe(400);
    expect((await ws.http.post(`/tunnel/vendor/diagnostics/${randomUUID()}`)).body.code).toBe('TENANT_NOT_FOUND');
  });

  test('operator views carry ids, titles and counts only: a body planted in every record kind is in none of them', async () => {
    const marker = `PLANTED-${randomUUID()}`;
    const project = await createProject(ws.http, 'Private project');
    const session = (await tool('start_session', { project_id: project })).value.session_id;
    const item = (await tool('add_sprint_item', { project_id: project, title: 'Planted item', version: 'v1', notes: `${marker} item notes` })).value;
    await tool('add_subtask', { project_id: project, parent_id: item.id, title: 'Planted subtask', notes: `${marker} subtask notes` });
    const planted = [
      await tool('add_note', { project_id: project, title: 'Planted note', body: `${marker} note` }),
      await tool('log_task', { project_id: project, session_id: session, description: `${marker} task` }),
      await tool('log_decision', { project_id: project, title: 'Planted decision', body: `${marker} decision` }),
      await tool('pin_decision', { project_id: project, title: 'Planted pin', body: `${marker} pinned` }),
      await tool('send_message', { project_id: project, to_session_id: session, body: `${marker} message` }),
      await tool('request_hitl', { project_id: project, session_id: session, question: `${marker} question?` }),
      await tool('add_workspace_note', { title: 'Planted workspace note', body: `${marker} workspace note` }),
      await tool('add_workspace_proposal', { title: 'Planted proposal', body: `${marker} proposal` }),
      await tool('generate_handoff', { project_id: project, session_id: session, summary: `${marker} handoff summary` }),
      await tool('update_session', { session_id: session, state: { note: `${marker} session state` } }),
    ];
    expect(planted.filter((p) => p.isError).map((p) => (p as { text?: string }).text)).toEqual([]);
    const proposal = (await tool('get_workspace_proposals')).value.proposals.find((p: { title: string }) => p.title === 'Planted proposal');
    await tool('promote_proposal', { proposal_id: proposal.id, project_id: project });
    expect((await ws.http.post(`/a2a/${project}/tasks/send`, { message: a2aMessage(`Planted A2A task\n${marker} a2a`) })).status).toBe(200);
    await ws.http.get(`/projects/${project}/document-structure`);
    // The planted bodies are stored: the project's own routes show them.
    expect(JSON.stringify((await ws.http.get(`/projects/${project}/notes`)).body)).toContain(marker);
    const views = ['/control-plane/artifacts?limit=200', '/control-plane/proposals?limit=200', '/control-plane/relationships?limit=200', '/document-peeks', '/failover-status'];
    for (const path of views) {
      const res = await ws.http.get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect([path, res.text.includes(marker)]).toEqual([path, false]);
    }
    const vendor = await ws.http.post(`/tunnel/vendor/diagnostics/${ws.tenant_id}`);
    expect(vendor.status).toBe(200);
    expect(vendor.text).not.toContain(marker);
    // The titles are there: the views are not empty by accident.
    expect((await ws.http.get('/control-plane/relationships?limit=200')).text).toContain('Planted subtask');
    expect((await ws.http.get('/control-plane/proposals?limit=200')).text).toContain('Planted proposal');
  });
});

describe('failover-status with Redis configured but unreachable', () => {
  let run: RunningBackend;

  beforeAll(async () => {
    // A port nothing listens on: the push adapter cannot connect, and messaging polls the database.
    run = await backends()[0].start({ SERVICE_CACHE_URL: `redis://127.0.0.1:${await freePort()}` });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('reports failover with pubsub_polling, and says messaging polls', async () => {
    const anonymous = new Http(run.testApp.url);
    await waitUntil(async () => (await anonymous.get('/failover-status')).body.failover === true, 20_000, 'pubsub reported down');
    expect((await anonymous.get('/failover-status')).body).toMatchObject({
      failover: true,
      reasons: ['pubsub_polling'],
      pubsub: { configured: true, availability: expect.stringMatching(/unreachable|construction_failed|degraded/), messaging: 'polling' },
      database: { read_only: false },
    });
  });
});

describe.each(eachBackend().filter(([name]) => name.startsWith('postgres')))('failover-status with a read-only Postgres database on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  /** Sets the database's default and drops the app's connections, so its pool reconnects under the new default. */
  async function readOnly(on: boolean) {
    const db = run.db!;
    const client = new PgClient({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('SET default_transaction_read_only = off');
      await client.query(`ALTER DATABASE "${db.name}" ${on ? 'SET default_transaction_read_only = on' : 'RESET default_transaction_read_only'}`);
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    } finally {
      await client.end();
    }
  }

  test('reports database_read_only while the database refuses writes, and clears once it takes them again', async () => {
    const anonymous = new Http(run.testApp.url);
    expect((await anonymous.get('/failover-status')).body.failover).toBe(false);
    await readOnly(true);
    try {
      await waitUntil(async () => (await anonymous.get('/failover-status')).body.reasons?.includes('database_read_only'), 20_000, 'read-only reported');
      expect((await anonymous.get('/failover-status')).body).toMatchObject({ failover: true, database: { type: 'postgres', read_only: true, reachable: true } });
    } finally {
      await readOnly(false);
    }
    await waitUntil(async () => (await anonymous.get('/failover-status')).body.failover === false, 20_000, 'writable again');
  });
});

describe.each(hostedBackend())('agent interfaces across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant sees none of our views' rows, cannot read our vendor diagnostics, and keeps its own package rules", async () => {
    const a = await tenantClient(run.testApp, 'tenant-views-a');
    const b = await tenantClient(run.testApp, 'tenant-views-b');
    const mcp = await connectMcp(run.testApp.url, a.token);
    try {
      const project = await createProject(a.http, 'A only');
      const first = (await callTool(mcp, 'add_sprint_item', { project_id: project, title: 'A first', version: 'v1' })).value;
      await callTool(mcp, 'add_sprint_item', { project_id: project, title: 'A second', version: 'v1', depends_on: first.id });
      await callTool(mcp, 'add_workspace_proposal', { title: 'A proposal' });
      await a.http.get(`/projects/${project}/document-structure`);
      await a.http.send('PUT', '/pkg-guard/rules', { rules: [{ pattern: 'left-pad', action: 'deny' }] });
    } finally {
      await mcp.close();
    }
    expect((await a.http.get('/control-plane/relationships')).body.total).toBe(1);
    for (const path of ['/control-plane/artifacts', '/control-plane/proposals', '/control-plane/relationships']) {
      expect((await b.http.get(path)).body).toMatchObject({ items: [], total: 0 });
    }
    expect((await b.http.get('/document-peeks')).body).toEqual({ peeks: [], total: 0 });
    const aProject = (await a.http.get('/projects')).body[0].id;
    const vendorB = await connectMcp(run.testApp.url, b.token, 'http', undefined, '/mcp/vendor');
    try {
      const foreign = await callTool(vendorB, 'get_project', { project_id: aProject });
      expect([foreign.isError, foreign.structured?.code]).toEqual([true, 'PROJECT_NOT_FOUND']);
      expect(JSON.stringify((await callTool(vendorB, 'list_projects')).value)).not.toContain(aProject);
    } finally {
      await vendorB.close();
    }
    expect((await b.http.post(`/tunnel/vendor/diagnostics/${a.tenant_id}`)).body.code).toBe('TENANT_NOT_FOUND');
    expect((await b.http.post(`/tunnel/vendor/diagnostics/${b.tenant_id}`)).status).toBe(200);
    expect((await b.http.get('/pkg-guard/rules')).body).toEqual({ rules: [] });
    expect((await b.http.post('/pkg-guard/check', { name: 'left-pad' })).body.allowed).toBe(true);
    expect((await a.http.post('/pkg-guard/check', { name: 'left-pad' })).body.allowed).toBe(false);
    const anonymous = new Http(run.testApp.url);
    for (const path of ['/control-plane/artifacts', '/document-peeks', '/pkg-guard/rules']) expect((await anonymous.get(path)).status).toBe(401);
    expect((await anonymous.post('/pkg-guard/check', { name: 'x' })).status).toBe(401);
    expect((await anonymous.post('/mcp/vendor', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json, text/event-stream' })).status).toBe(401);
    expect((await anonymous.get('/failover-status')).status).toBe(200);
  });
});
