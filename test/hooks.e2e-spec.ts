import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContextSections } from '../src/common/extensions/context-sections';
import { HookEvent } from '../src/modules/hooks/hook-event.entity';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Refusals, WRONG_TYPES } from './support/bad-input';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { REPO_ROOT } from './support/processes';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';

/**
 * The JSON a Claude Code command hook may print for SessionStart, as its hooks
 * reference documents it: the common fields, and hookSpecificOutput with
 * hookEventName "SessionStart" and additionalContext.
 */
const SESSION_START_OUTPUT_SCHEMA: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    continue: { type: 'boolean' },
    stopReason: { type: 'string' },
    suppressOutput: { type: 'boolean' },
    systemMessage: { type: 'string' },
    hookSpecificOutput: {
      type: 'object',
      additionalProperties: false,
      required: ['hookEventName'],
      properties: { hookEventName: { const: 'SessionStart' }, additionalContext: { type: 'string' } },
    },
  },
};
/** Stop and SessionEnd: the common fields (plus decision/reason, which Baton never sends). */
const STOP_OUTPUT_SCHEMA: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    continue: { type: 'boolean' },
    stopReason: { type: 'string' },
    suppressOutput: { type: 'boolean' },
    systemMessage: { type: 'string' },
    decision: { const: 'block' },
    reason: { type: 'string' },
  },
};

interface Schema {
  type?: 'object' | 'string' | 'boolean';
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
}

/** The JSON Schema keywords the hook schemas use; returns what does not match. */
function schemaErrors(value: unknown, schema: Schema, path = '$'): string[] {
  if (schema.const !== undefined) return value === schema.const ? [] : [`${path} must be ${JSON.stringify(schema.const)}`];
  if (schema.type === 'string' || schema.type === 'boolean') return typeof value === schema.type ? [] : [`${path} must be a ${schema.type}`];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path} must be an object`];
  const record = value as Record<string, unknown>;
  const errors = (schema.required ?? []).filter((k) => !(k in record)).map((k) => `${path}.${k} is required`);
  for (const [key, v] of Object.entries(record)) {
    const sub = schema.properties?.[key];
    if (sub) errors.push(...schemaErrors(v, sub, `${path}.${key}`));
    else if (schema.additionalProperties === false) errors.push(`${path}.${key} is not allowed`);
  }
  return errors;
}

/** What Claude Code sends on stdin to a SessionStart command hook (fields Baton does not read included). */
function sessionStartInput(assistantSession: string, cwd: string, source = 'startup') {
  return {
    session_id: assistantSession,
    transcript_path: `/home/dev/.claude/projects/x/${assistantSession}.jsonl`,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'SessionStart',
    source,
    model: 'claude-sonnet',
  };
}

/** The commands of docs/hooks.md, exactly as a person would paste them. */
function documentedCommands(): { sessionStart: string; stop: string } {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'hooks.md'), 'utf8');
  const block = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
  const settings = JSON.parse(block ?? '{}') as { hooks: Record<string, { hooks: { type: string; command: string }[] }[]> };
  return { sessionStart: settings.hooks.SessionStart[0].hooks[0].command, stop: settings.hooks.SessionEnd[0].hooks[0].command };
}

function runHookCommand(command: string, input: unknown, env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile('bash', ['-c', command], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 20_000 }, (error, stdout) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout }),
    );
    child.stdin?.end(JSON.stringify(input));
  });
}

describe.each(eachBackend())('assistant hooks on %s', (_name, backend) => {
  let run: RunningBackend;
  const big = new Map<string, string[]>();

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    run.testApp.app.get(ContextSections).register('hooks_test_big', async (_m, projectId) => {
      const lines = big.get(projectId);
      return lines ? { key: 'hooks_test_big', title: 'Big', order: 45, lines } : null;
    });
  });
  afterAll(async () => {
    await run?.stop();
  });

  const newProject = async (name = `hooks-${randomUUID().slice(0, 8)}`) => ({ id: (await run.http.post('/projects', { name })).body.id as string, name });
  const sessionIdIn = (context: string) => /session_id ([0-9a-f-]{36})/.exec(context)?.[1];

  test('diagnostics say "never" before any hook call has reached Baton', async () => {
    const res = await run.http.get('/hooks/diagnostics');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'never', reaching: false, last_received_at: null, hooks: { 'session-start': null, stop: null }, recent: [] });
    // APP_URL when it is set (the hosted backend sets it), else the address the server listens on.
    const { config, url } = run.testApp;
    expect(res.body.endpoints.session_start).toBe(`${config.explicitlySet.has('APP_URL') ? config.baseUrl : url}/hooks/session-start`);
  });

  test('SessionStart answers the documented hook JSON carrying the context block, and starts a session', async () => {
    const project = await newProject();
    const res = await run.http.post(`/hooks/session-start?project=${encodeURIComponent(project.name)}`, sessionStartInput(randomUUID(), '/somewhere/else'));
    expect(res.status).toBe(200);
    expect(schemaErrors(res.body, SESSION_START_OUTPUT_SCHEMA)).toEqual([]);
    const context: string = res.body.hookSpecificOutput.additionalContext;
    expect(context).toContain(`# Baton context: ${project.name}`);
    const sessionId = sessionIdIn(context);
    expect(sessionId).toBeDefined();
    expect((await run.http.get(`/projects/${project.id}/sessions`)).body.map((s: { id: string }) => s.id)).toEqual([sessionId]);
    expect(context).toContain('## Active sessions');
  });

  test('the same assistant session (resume, clear, compact) picks up its Baton session; a new one gets a new session', async () => {
    const project = await newProject();
    const assistant = randomUUID();
    const first = await run.http.post(`/hooks/session-start?project_id=${project.id}`, sessionStartInput(assistant, '/x'));
    const again = await run.http.post(`/hooks/session-start?project_id=${project.id}`, sessionStartInput(assistant, '/x', 'compact'));
    const firstId = sessionIdIn(first.body.hookSpecificOutput.additionalContext);
    expect(sessionIdIn(again.body.hookSpecificOutput.additionalContext)).toBe(firstId);
    expect(again.body.hookSpecificOutput.additionalContext).toContain('(resumed)');
    const other = await run.http.post(`/hooks/session-start?project_id=${project.id}`, sessionStartInput(randomUUID(), '/x'));
    expect(sessionIdIn(other.body.hookSpecificOutput.additionalContext)).not.toBe(firstId);
    expect((await run.http.get(`/projects/${project.id}/sessions`)).body).toHaveLength(2);
  });

  test('without a project in the URL, the last segment of cwd names the project (without regard to case)', async () => {
    const project = await newProject(`Repo-${randomUUID().slice(0, 6)}`);
    const res = await run.http.post('/hooks/session-start', sessionStartInput(randomUUID(), `/home/dev/code/${project.name.toLowerCase()}/`));
    expect(res.status).toBe(200);
    expect(res.body.hookSpecificOutput.additionalContext).toContain(`# Baton context: ${project.name}`);
    const missing = await run.http.post('/hooks/session-start', sessionStartInput(randomUUID(), '/home/dev/code/no-such-project'));
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('project not found: no-such-project');
    const unnamed = await run.http.post('/hooks/session-start', {});
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.code).toBe('HOOK_PROJECT_NOT_NAMED');
  });

  test('the context warns about files other sessions hold, and stays under 10,000 characters however large the project', async () => {
    const project = await newProject();
    const holder = (await run.http.post(`/projects/${project.id}/start-session`, { name: 'holder' })).body;
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await callTool(client, 'claim_file', { file_path: 'src/a.ts', session_id: holder.session_id });
    } finally {
      await client.close();
    }
    big.set(
      project.id,
      Array.from({ length: 10_000 }, (_, i) => `task ${10_000 - i} ${'detail '.repeat(15)}`),
    );
    const res = await run.http.post(`/hooks/session-start?project_id=${project.id}`, sessionStartInput(randomUUID(), '/x'));
    const context: string = res.body.hookSpecificOutput.additionalContext;
    expect(context).toContain('Files other live sessions hold');
    expect(context).toContain(`- src/a.ts is locked by session holder (${holder.session_id})`);
    expect(context.length).toBeLessThanOrEqual(10_000);
    expect(Buffer.byteLength(context, 'utf8')).toBeLessThanOrEqual(10_000);
    expect(context).toContain('- task 10000 ');
  });

  test('Stop (wired to SessionEnd) checkpoints: closes the Baton session and releases its locks; again is harmless', async () => {
    const project = await newProject();
    const assistant = randomUUID();
    const started = await run.http.post(`/hooks/session-start?project_id=${project.id}`, sessionStartInput(assistant, '/x'));
    const sessionId = sessionIdIn(started.body.hookSpecificOutput.additionalContext) as string;
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await callTool(client, 'claim_file', { file_path: 'src/held.ts', session_id: sessionId });
    } finally {
      await client.close();
    }
    const end = { session_id: assistant, transcript_path: '/t.jsonl', cwd: '/x', hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' };
    const stopped = await run.http.post('/hooks/stop', end);
    expect(stopped.status).toBe(200);
    expect(schemaErrors(stopped.body, STOP_OUTPUT_SCHEMA)).toEqual([]);
    expect(stopped.body.systemMessage).toContain('1 file lock(s) released');
    expect((await run.http.get(`/sessions/${sessionId}`)).body).toMatchObject({ status: 'closed', close_reason: 'closed' });
    expect((await run.http.get(`/projects/${project.id}/file-locks`)).body).toEqual([]);
    const again = await run.http.post('/hooks/stop', { ...end, hook_event_name: 'Stop', stop_hook_active: false });
    expect(again.status).toBe(200);
    expect(again.body.systemMessage).toContain('was already closed');
    // The assistant session starting again gets a fresh Baton session.
    const restarted = await run.http.post(`/hooks/session-start?project_id=${project.id}`, sessionStartInput(assistant, '/x', 'resume'));
    expect(sessionIdIn(restarted.body.hookSpecificOutput.additionalContext)).not.toBe(sessionId);
  });

  test('Stop names its session by baton_session_id too; unknown sessions are 404, no session at all 400', async () => {
    const project = await newProject();
    const s = (await run.http.post(`/projects/${project.id}/start-session`, {})).body;
    const byId = await run.http.post(`/hooks/stop?baton_session_id=${s.session_id}&project_id=${project.id}`, {});
    expect(byId.status).toBe(200);
    expect((await run.http.get(`/sessions/${s.session_id}`)).body.status).toBe('closed');
    const other = await newProject();
    expect((await run.http.post(`/hooks/stop?baton_session_id=${s.session_id}&project_id=${other.id}`, {})).status).toBe(404);
    const unknown = await run.http.post('/hooks/stop', { session_id: randomUUID(), hook_event_name: 'SessionEnd' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('HOOK_SESSION_UNKNOWN');
    expect((await run.http.post('/hooks/stop', {})).body.code).toBe('HOOK_SESSION_NOT_NAMED');
    expect((await run.http.post('/hooks/stop', { session_id: 'x', hook_event_name: 'SessionStart' })).body.code).toBe('HOOK_WRONG_EVENT');
  });

  test('diagnostics: what the hooks last did, failures with their reason, per project, over REST and MCP', async () => {
    const project = await newProject();
    expect((await run.http.get(`/hooks/diagnostics?project_id=${project.id}`)).body.status).toBe('never');
    const assistant = randomUUID();
    await run.http.post(`/hooks/session-start?project_id=${project.id}`, sessionStartInput(assistant, '/x'));
    let diag = (await run.http.get(`/hooks/diagnostics?project_id=${project.id}`)).body;
    expect(diag).toMatchObject({ status: 'ok', reaching: true, hooks: { 'session-start': { last_outcome: 'ok', calls: 1, errors: 0 }, stop: null } });
    expect(diag.recent[0]).toMatchObject({ event: 'session-start', outcome: 'ok', project_id: project.id, assistant_session_id: assistant, source: 'startup' });
    expect(diag.recent[0].detail).toMatch(/^started session /);

    await run.http.post('/hooks/session-start?project=does-not-exist', sessionStartInput(assistant, '/x'));
    diag = (await run.http.get('/hooks/diagnostics')).body;
    expect(diag.status).toBe('failing');
    expect(diag.recent[0]).toMatchObject({ event: 'session-start', outcome: 'error', detail: 'project not found: does-not-exist', project_id: null });

    await run.http.post('/hooks/stop', { session_id: assistant, hook_event_name: 'SessionEnd', reason: 'logout' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const tool = await callTool(client, 'get_hook_diagnostics', { project_id: project.id });
      expect(tool.value.hooks.stop).toMatchObject({ last_outcome: 'ok', calls: 1 });
      expect(tool.value.recent[0]).toMatchObject({ event: 'stop', source: 'logout' });
      expect((await callTool(client, 'get_hook_diagnostics', { project_id: 'x' })).isError).toBe(true);
    } finally {
      await client.close();
    }

    await inTenantDb(run.testApp, run.token, (m) => m.update(HookEvent, { project_id: project.id }, { created_at: new Date(Date.now() - 2 * 86400_000) }));
    expect((await run.http.get(`/hooks/diagnostics?project_id=${project.id}`)).body).toMatchObject({ status: 'silent', reaching: false });
  });

  test('the diagnostics keep the newest 200 hook calls', async () => {
    await inTenantDb(run.testApp, run.token, async (m) => {
      const old = new Date(Date.now() - 86400_000);
      for (let i = 0; i < 210; i++) {
        await m.insert(HookEvent, {
          id: randomUUID(),
          event: 'stop',
          outcome: 'error',
          detail: `old ${i}`,
          project_id: null,
          session_id: null,
          assistant_session_id: null,
          source: null,
          created_at: old,
        });
      }
    });
    await run.http.post('/hooks/stop', {});
    expect(await inTenantDb(run.testApp, run.token, (m) => m.count(HookEvent))).toBe(200);
    expect((await run.http.get('/hooks/diagnostics')).body.recent[0].detail).toMatch(/names no session/);
  });

  test('the configuration in docs/hooks.md works as pasted: curl sends the hook input and prints what Claude Code reads', async () => {
    const project = await newProject(`docs-${randomUUID().slice(0, 6)}`);
    const commands = documentedCommands();
    const env = { BATON_URL: run.testApp.url, ...(run.token ? { BATON_TOKEN: run.token } : {}) };
    const assistant = randomUUID();
    const start = await runHookCommand(commands.sessionStart, sessionStartInput(assistant, `/home/dev/${project.name}`), env);
    expect(start.code).toBe(0);
    const output = JSON.parse(start.stdout);
    expect(schemaErrors(output, SESSION_START_OUTPUT_SCHEMA)).toEqual([]);
    expect(output.hookSpecificOutput.additionalContext).toContain(`# Baton context: ${project.name}`);
    const stop = await runHookCommand(commands.stop, { session_id: assistant, hook_event_name: 'SessionEnd', reason: 'other', cwd: `/home/dev/${project.name}` }, env);
    expect(stop.code).toBe(0);
    expect(schemaErrors(JSON.parse(stop.stdout), STOP_OUTPUT_SCHEMA)).toEqual([]);
    expect((await run.http.get(`/projects/${project.id}/sessions`)).body).toEqual([]);
    // A refused call exits non-zero (Claude Code reports a hook error) with Baton's detail on stdout.
    const refused = await runHookCommand(commands.sessionStart, sessionStartInput(assistant, '/home/dev/unknown-project-dir'), env);
    expect(refused.code).not.toBe(0);
    expect(JSON.parse(refused.stdout).detail).toBe('project not found: unknown-project-dir');
  });

  test('bad input to the hook routes and tool: 4xx with detail, never 5xx, no session started', async () => {
    const project = await newProject();
    const refusals = new Refusals();
    const bodies: Record<string, unknown>[] = [
      ...WRONG_TYPES.flatMap((v) => [{ session_id: v }, { hook_event_name: v }, { source: v }, { cwd: v }, { reason: v }]),
      { session_id: '' },
      { session_id: 'has spaces' },
      { session_id: 'x'.repeat(201) },
      { source: 'Not A Word' },
      { cwd: `/bad\u0000dir` },
      { hook_event_name: 'PreToolUse' },
    ];
    for (const body of bodies) {
      refusals.http(await run.http.post(`/hooks/session-start?project_id=${project.id}`, body), `session-start ${JSON.stringify(body).slice(0, 50)}`);
      refusals.http(await run.http.post(`/hooks/stop?project_id=${project.id}`, body), `stop ${JSON.stringify(body).slice(0, 50)}`);
    }
    for (const raw of ['{', '[]', '"x"', '42', 'null', '[{"session_id":"a"}]']) {
      refusals.http(await run.http.send('POST', '/hooks/session-start', raw), `session-start raw ${raw}`);
      refusals.http(await run.http.send('POST', '/hooks/stop', raw), `stop raw ${raw}`);
    }
    for (const q of ['project_id=x', `project_id=${randomUUID()}`, 'project=%07bell', `project=${'p'.repeat(201)}`, 'baton_session_id=x', 'colour=red', 'project[]=a']) {
      refusals.http(await run.http.post(`/hooks/session-start?${q}`, {}), `session-start ?${q}`);
      refusals.http(await run.http.post(`/hooks/stop?${q}`, {}), `stop ?${q}`);
    }
    for (const q of ['project_id=x', `project_id=${randomUUID()}`, 'colour=red']) refusals.http(await run.http.get(`/hooks/diagnostics?${q}`), `diagnostics ?${q}`);
    refusals.http(await run.http.post('/hooks/diagnostics', {}), 'POST diagnostics');
    refusals.http(await run.http.get('/hooks/session-start'), 'GET session-start');
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      for (const args of [{ project_id: 'x' }, { project_id: 5 }, { project_id: randomUUID() }, { colour: 'red' }]) {
        const result = await callTool(client, 'get_hook_diagnostics', args);
        refusals.tool(result, `get_hook_diagnostics ${JSON.stringify(args)}`);
      }
    } finally {
      await client.close();
    }
    expect(refusals.failures).toEqual([]);
    expect((await run.http.get(`/projects/${project.id}/sessions`)).body).toEqual([]);
  });
});

describe.each(hostedBackend())('assistant hooks across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("hooks need the workspace's token; another workspace's projects, sessions and diagnostics are out of reach", async () => {
    const other = await tenantClient(run.testApp, 'other-hooks');
    const intruder = other.http;
    const project = (await run.http.post('/projects', { name: 'shared-name' })).body.id;
    const assistant = randomUUID();
    await run.http.post(`/hooks/session-start?project_id=${project}`, sessionStartInput(assistant, '/x'));
    const session = (await run.http.get(`/projects/${project}/sessions`)).body[0];

    expect((await new Http(run.testApp.url).post(`/hooks/session-start?project_id=${project}`, {})).status).toBe(401);
    expect((await intruder.post(`/hooks/session-start?project_id=${project}`, sessionStartInput(randomUUID(), '/x'))).status).toBe(404);
    // A project of the same name in the other workspace is a different project.
    expect((await intruder.post('/hooks/session-start', sessionStartInput(randomUUID(), '/home/dev/shared-name'))).status).toBe(404);
    expect((await intruder.post('/hooks/stop', { session_id: assistant, hook_event_name: 'SessionEnd' })).status).toBe(404);
    expect((await intruder.post(`/hooks/stop?baton_session_id=${session.id}`, {})).status).toBe(404);
    expect((await intruder.get(`/hooks/diagnostics?project_id=${project}`)).status).toBe(404);
    const theirs = (await intruder.get('/hooks/diagnostics')).body;
    expect(theirs.recent.some((c: { project_id: string | null }) => c.project_id === project)).toBe(false);
    expect((await run.http.get(`/sessions/${session.id}`)).body.status).toBe('active');
  });
});
