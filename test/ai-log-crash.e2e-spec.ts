import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schemaNameFor } from '../libs/tenancy';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { ServerProcess, startServerProcess } from './support/processes';
import { describePostgres } from './support/suites';
import { hostedEnv, provisionTenant, startApp } from './support/test-app';

/** Answered one after the other, then as many at once (they share writes). */
const SEQUENTIAL = 20;
const CONCURRENT = 20;

interface StoredEvent {
  kind: string;
  tool: string | null;
  project_id: string | null;
  session_id: string | null;
}

/** What the answered requests must have left in `ai_log_events`. */
interface Answered {
  projectId: string;
  restSessionId: string;
  mcpSessionId: string;
}

/**
 * Against a built server in its own process (`node dist/src/main.js`): a REST
 * session start, then MCP calls through the SDK's client (a start_session, a
 * handoff correction, sequential heartbeats, concurrent get_project calls),
 * and a SIGKILL the moment the last answer has arrived: no clean stop, no
 * timer, nothing left to flush what the process still held in memory.
 */
async function answerThenKill(server: ServerProcess, token: string | undefined): Promise<Answered> {
  const http = new Http(server.url, token);
  const projectId = (await http.post('/projects', { name: 'Killed' })).body.id as string;
  const registered = await http.post('/sessions/register', { project_id: projectId, name: 'rest-start' });
  expect(registered.status).toBe(201);
  const client = await connectMcp(server.url, token);
  const started = await callTool(client, 'start_session', { project_id: projectId, name: 'mcp-start' });
  expect(started.isError).toBe(false);
  const mcpSessionId = started.value.session_id as string;
  const corrected = await callTool(client, 'record_handoff_correction', {
    project_id: projectId,
    session_id: mcpSessionId,
    summary: 'take the other door',
    content: 'The front door is locked.',
  });
  expect(corrected.isError).toBe(false);
  for (let i = 0; i < SEQUENTIAL; i++) expect((await callTool(client, 'heartbeat', { session_id: mcpSessionId })).isError).toBe(false);
  const concurrent = await Promise.all(Array.from({ length: CONCURRENT }, () => callTool(client, 'get_project', { project_id: projectId })));
  // The last answer is in: kill at once, before anything else can run in the server.
  const exited = new Promise<NodeJS.Signals | null>((resolve) => server.child.once('exit', (_code, signal) => resolve(signal)));
  process.kill(-(server.child.pid as number), 'SIGKILL');
  expect(await exited).toBe('SIGKILL');
  expect(concurrent.every((c) => !c.isError)).toBe(true);
  await client.close().catch(() => undefined);
  return { projectId, restSessionId: registered.body.id, mcpSessionId };
}

function expectEveryAnsweredEvent(events: StoredEvent[], answered: Answered) {
  const tools = (name: string) => events.filter((e) => e.kind === 'tool_call' && e.tool === name);
  expect(tools('start_session')).toHaveLength(1);
  expect(tools('record_handoff_correction')).toHaveLength(1);
  expect(tools('heartbeat')).toHaveLength(SEQUENTIAL);
  expect(tools('get_project')).toHaveLength(CONCURRENT);
  expect(tools('heartbeat').every((e) => e.session_id === answered.mcpSessionId && e.project_id === answered.projectId)).toBe(true);
  expect(tools('get_project').every((e) => e.project_id === answered.projectId)).toBe(true);
  const starts = events.filter((e) => e.kind === 'session_start').map((e) => e.session_id);
  expect(starts.sort()).toEqual([answered.restSessionId, answered.mcpSessionId].sort());
  expect(events.filter((e) => e.kind === 'handoff_correction')).toEqual([expect.objectContaining({ project_id: answered.projectId, session_id: answered.mcpSessionId })]);
  expect(events).toHaveLength(SEQUENTIAL + CONCURRENT + 2 + 2 + 1);
}

const COLUMNS = 'kind, tool, project_id, session_id';

describe('an answered call keeps its AI-log event through a SIGKILL (needs `npm run build`)', () => {
  test('SQLite self-hosted: every answered call and session start is in ai_log_events after the kill', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-ailog-kill-'));
    const file = join(dir, 'baton.db');
    let server: ServerProcess | undefined;
    try {
      server = await startServerProcess({ SERVICE_DB: file, SERVICE_SWEEP_INTERVAL_SECONDS: '0' }, { timeoutMs: 30_000 });
      const answered = await answerThenKill(server, undefined);
      // Read straight from the file the killed process left: SQLite replays its write-ahead log on open.
      const db = new Database(file);
      try {
        expectEveryAnsweredEvent(db.prepare(`SELECT ${COLUMNS} FROM ai_log_events`).all() as StoredEvent[], answered);
      } finally {
        db.close();
      }
    } finally {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  describePostgres('on Postgres', () => {
    test("hosted: every answered call and session start is in the tenant's ai_log_events after the kill", async () => {
      const db = await TestDatabase.create();
      let server: ServerProcess | undefined;
      try {
        const setup = await startApp(hostedEnv(db.url));
        const tenant = await provisionTenant(setup, `kill-${randomUUID().slice(0, 8)}`);
        await setup.close();
        server = await startServerProcess(hostedEnv(db.url, { SERVICE_MCP_RATE_LIMIT: '10000', SERVICE_SWEEP_INTERVAL_SECONDS: '0' }), { timeoutMs: 30_000 });
        const answered = await answerThenKill(server, tenant.token);
        const events = await db.query<StoredEvent>(`SELECT ${COLUMNS} FROM "${schemaNameFor(tenant.tenant_id)}".ai_log_events`);
        expectEveryAnsweredEvent(events, answered);
      } finally {
        await server?.stop();
        await db.drop();
      }
    }, 90_000);
  });
});
