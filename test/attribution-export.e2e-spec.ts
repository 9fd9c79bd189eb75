import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson, Ledger, recomputeChain } from '../src/modules/attribution/attribution-ledger.util';
import { verifyAttributionPdf } from '../src/modules/attribution/attribution-verifier';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { REPO_ROOT } from './support/processes';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';

/** The PDF as the browser or curl saves it. */
async function download(run: RunningBackend, projectId: string): Promise<{ status: number; headers: Headers; pdf: Buffer }> {
  const headers: Record<string, string> = run.token ? { authorization: `Bearer ${run.token}` } : {};
  const res = await fetch(`${run.http.base}/projects/${projectId}/export/pdf`, { headers });
  return { status: res.status, headers: res.headers, pdf: Buffer.from(await res.arrayBuffer()) };
}

/** The ledger attached to a report, read the way any PDF reader finds attachments. */
async function attachedLedger(pdf: Buffer): Promise<Ledger> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  const files = (await doc.getAttachments()) as Record<string, { content: Uint8Array }>;
  await doc.destroy();
  return JSON.parse(Buffer.from(files['baton-ledger.json'].content).toString('utf8')) as Ledger;
}

/** Replaces one occurrence of `from` by `to` (same length: every offset of the file stays right). */
function replaceOnce(pdf: Buffer, from: string | Buffer, to: string | Buffer): Buffer {
  const a = Buffer.from(from);
  const b = Buffer.from(to);
  expect(b.length).toBe(a.length);
  const at = pdf.indexOf(a);
  expect(at).toBeGreaterThanOrEqual(0);
  return Buffer.concat([pdf.subarray(0, at), b, pdf.subarray(at + a.length)]);
}

/**
 * Gives the attached ledger new content of any length, as a PDF editor would
 * save it: the stream's /Length and the cross-reference table follow.
 */
function rewriteLedger(pdf: Buffer, edit: (text: string) => string): Buffer {
  const dict = pdf.indexOf('/Type /EmbeddedFile');
  const start = pdf.indexOf('stream\n', dict) + 'stream\n'.length;
  const end = pdf.indexOf('\nendstream', start);
  const next = Buffer.from(edit(pdf.subarray(start, end).toString('utf8')), 'utf8');
  const head = pdf
    .subarray(0, start)
    .toString('latin1')
    .replace(/(\/Type \/EmbeddedFile[\s\S]*?\/Length )\d+/, `$1${next.length}`);
  const body = Buffer.concat([Buffer.from(head, 'latin1'), next, pdf.subarray(end)]).toString('latin1');
  const xrefAt = body.lastIndexOf('\nxref\n') + 1;
  const offsets = new Map<number, number>();
  for (const m of body.slice(0, xrefAt).matchAll(/(?:^|\n)(\d+) 0 obj/g)) offsets.set(Number(m[1]), m.index + (m[0].startsWith('\n') ? 1 : 0));
  const size = Math.max(...offsets.keys()) + 1;
  const rows = ['0000000000 65535 f '];
  for (let n = 1; n < size; n++) rows.push(`${String(offsets.get(n) ?? 0).padStart(10, '0')} 00000 n `);
  const trailer = body.slice(body.indexOf('trailer', xrefAt), body.indexOf('startxref', xrefAt));
  return Buffer.from(`${body.slice(0, xrefAt)}xref\n0 ${size}\n${rows.join('\n')}\n${trailer}startxref\n${xrefAt}\n%%EOF\n`, 'latin1');
}

/** Beyond the standard PDF fonts, on several lines and longer than an entry's visible text. */
const UNPRINTABLE = `Café ☕ 日本\nsecond line ${'long '.repeat(120)}end`;

const hex = (text: string) => Buffer.from(text, 'latin1').toString('hex');

describe.each(eachBackend())('attribution report (GET /projects/{project_id}/export/pdf) on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;
  let pdf: Buffer;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
    projectId = await createProject(run.http, 'Attribution');
    const session = (await run.http.post('/sessions/register', { project_id: projectId, name: 'planner-bot', human_id: 'ada' })).body;
    expect(session.id).toEqual(expect.any(String));
    expect((await run.http.post('/tasks', { project_id: projectId, session_id: session.id, description: 'Parser rewrite 1234567890', status: 'done' })).status).toBe(201);
    expect((await run.http.post('/tasks', { project_id: projectId, session_id: session.id, description: UNPRINTABLE, status: 'done' })).status).toBe(201);
    // An entry quoting a hash line does not pass for the report's own.
    expect((await run.http.post('/tasks', { project_id: projectId, session_id: session.id, description: `Final hash (SHA-256): ${'0'.repeat(64)}` })).status).toBe(201);
    const item = (await run.http.post(`/projects/${projectId}/sprint-items`, { version: 'v1', title: 'Ship the exporter', human_id: 'grace' })).body;
    expect((await run.http.post(`/projects/${projectId}/sprint-items/${item.id}/claim`, { session_id: session.id })).body.claimed).toBe(true);
    expect((await run.http.post(`/projects/${projectId}/sprint-items/${item.id}/complete`, { session_id: session.id, notes: 'merged' })).status).toBeLessThan(300);
    const question = (await run.http.post(`/projects/${projectId}/hitl`, { question: 'Which licence?', session_id: session.id })).body;
    expect((await run.http.patch(`/hitl/${question.id}`, { answer: 'MIT', answered_by: 'linus' })).status).toBe(200);
    expect((await run.http.post(`/projects/${projectId}/decisions`, { title: 'Use SHA-256', body: 'for the chain', session_id: session.id })).status).toBe(201);
    const mcp = await connectMcp(run.testApp.url, run.token);
    expect((await callTool(mcp, 'log_task', { project_id: projectId, session_id: session.id, description: 'Logged over MCP' })).isError).toBe(false);
    expect((await callTool(mcp, 'get_tasks', { project_id: projectId })).isError).toBe(false);
    await mcp.close();
    const res = await download(run, projectId);
    expect(res.status).toBe(200);
    pdf = res.pdf;
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('the report is a PDF download whose ledger names who did what, and an untouched report verifies', async () => {
    const res = await download(run, projectId);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="baton-attribution-${projectId}-\\d{4}-\\d{2}-\\d{2}\\.pdf"$`));
    expect(res.pdf.subarray(0, 5).toString()).toBe('%PDF-');

    const ledger = await attachedLedger(pdf);
    expect(ledger.header).toMatchObject({ project_id: projectId, complete: true, entry_limit: 2000 });
    const rows = ledger.entries.map((e) => [e.kind, e.person, e.agent, e.text]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['session.started', 'ada', 'planner-bot', 'session planner-bot (interactive) started'],
        ['task.logged', 'ada', 'planner-bot', '[done] Parser rewrite 1234567890'],
        ['sprint_item.added', 'grace', null, 'Ship the exporter (v1)'],
        ['sprint_item.claimed', 'ada', 'planner-bot', expect.stringContaining('Ship the exporter')],
        ['sprint_item.done', 'ada', 'planner-bot', 'Ship the exporter: merged'],
        ['hitl.asked', 'ada', 'planner-bot', 'Which licence?'],
        ['hitl.answered', 'linus', null, 'MIT'],
        ['decision.logged', 'ada', 'planner-bot', 'Use SHA-256: for the chain'],
        ['task.logged', 'ada', 'planner-bot', '[done] Logged over MCP'],
        ['task.logged', 'ada', 'planner-bot', `[done] ${UNPRINTABLE}`],
        ['tool_call', 'ada', 'planner-bot', expect.stringMatching(/^log_task \{.*"description":"Logged over MCP"/)],
      ]),
    );
    // Reading tools did nothing to attribute.
    expect(ledger.entries.filter((e) => e.kind === 'tool_call').map((e) => e.text.split(' ')[0])).toEqual(['log_task']);
    expect(ledger.entries.map((e) => e.seq)).toEqual(ledger.entries.map((_e, i) => i + 1));
    expect([...ledger.entries.map((e) => e.at)].sort()).toEqual(ledger.entries.map((e) => e.at));
    expect(recomputeChain(ledger).final).toBe(ledger.final_hash);

    const result = await verifyAttributionPdf(new Uint8Array(pdf));
    expect(result).toEqual({ ok: true, problems: [], entries: ledger.entries.length, final_hash: ledger.final_hash });
    // The final hash is printed (Courier: one run of text in the page content).
    expect(pdf.includes(hex(ledger.final_hash))).toBe(true);
  });

  test('changing one entry of the attached ledger fails verification', async () => {
    const tampered = replaceOnce(pdf, '"text":"MIT"', '"text":"BSD"');
    const result = await verifyAttributionPdf(new Uint8Array(tampered));
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^ledger entry #\d+ does not match its hash/), expect.stringMatching(/^the visible text of entry #\d+ differs/)]),
    );
  });

  test('changing the printed final hash fails verification', async () => {
    const ledger = await attachedLedger(pdf);
    const forged = `${ledger.final_hash[0] === 'a' ? 'b' : 'a'}${ledger.final_hash.slice(1)}`;
    const result = await verifyAttributionPdf(new Uint8Array(replaceOnce(pdf, hex(ledger.final_hash), hex(forged))));
    expect(result.ok).toBe(false);
    expect(result.problems).toContain(`the printed final hash ${forged} is not the chain's ${ledger.final_hash}`);
  });

  test('changing the visible text of an entry fails verification', async () => {
    const result = await verifyAttributionPdf(new Uint8Array(replaceOnce(pdf, hex('1234567890'), hex('1234567899'))));
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([expect.stringMatching(/^the visible text of entry #\d+ differs from the ledger: expected "\[done\] Parser rewrite 1234567890"/)]);
  });

  test('appending an entry to the ledger fails verification, even with its hash and the final hash recomputed', async () => {
    const tampered = rewriteLedger(pdf, (text) => {
      const ledger = JSON.parse(text) as Ledger;
      const { hash: _h, ...last } = ledger.entries[ledger.entries.length - 1];
      ledger.entries.push({ ...last, seq: last.seq + 1, text: 'an entry added later', hash: '' });
      const chain = recomputeChain(ledger);
      ledger.entries[ledger.entries.length - 1].hash = chain.final;
      ledger.final_hash = chain.final;
      return JSON.stringify(ledger);
    });
    const appended = await attachedLedger(tampered);
    expect(appended.entries[appended.entries.length - 1].text).toBe('an entry added later');
    const result = await verifyAttributionPdf(new Uint8Array(tampered));
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      expect.stringMatching(/^the printed final hash [0-9a-f]{64} is not the chain's/),
      expect.stringMatching(/^the visible text of the report header differs/),
    ]);
    // The same ledger rewritten unchanged still verifies: the edit, not the rewriting, is what fails.
    expect((await verifyAttributionPdf(new Uint8Array(rewriteLedger(pdf, (text) => canonicalJson(JSON.parse(text)))))).ok).toBe(true);
  });

  test('npm run verify-export prints OK for the report and FAILED for an edited one', () => {
    const script = join(REPO_ROOT, 'dist/src/cli/verify-export.js');
    if (!existsSync(script)) throw new Error('build first (npm run build): the command runs dist/src/cli/verify-export.js');
    const dir = mkdtempSync(join(tmpdir(), 'baton-export-'));
    try {
      writeFileSync(join(dir, 'report.pdf'), pdf);
      writeFileSync(join(dir, 'edited.pdf'), replaceOnce(pdf, hex('1234567890'), hex('1234567899')));
      const verify = (file: string) => spawnSync('npm', ['run', '-s', 'verify-export', '--', join(dir, file)], { cwd: REPO_ROOT, encoding: 'utf8' });
      const good = verify('report.pdf');
      expect(good.stdout).toMatch(/^OK: \d+ entries, final hash [0-9a-f]{64}\n$/);
      expect(good.status).toBe(0);
      const bad = verify('edited.pdf');
      expect(bad.stdout).toMatch(/^FAILED: .*\n- the visible text of entry #\d+ differs from the ledger/);
      expect(bad.status).toBe(1);
      const missing = verify('absent.pdf');
      expect(missing.stderr).toMatch(/cannot read/);
      expect(missing.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('past 2000 entries the report keeps the newest and says older activity is left out', async () => {
    const busy = await createProject(run.http, 'Busy');
    const worker = (await run.http.post('/sessions/register', { project_id: busy, name: 'worker', human_id: 'ada' })).body;
    const descriptions = Array.from({ length: 2001 }, (_v, i) => `task ${i + 1}`);
    for (let i = 0; i < descriptions.length; i += 50) {
      const batch = descriptions.slice(i, i + 50).map((description) => run.http.post('/tasks', { project_id: busy, session_id: worker.id, description, status: 'done' }));
      expect((await Promise.all(batch)).every((res) => res.status === 201)).toBe(true);
    }
    const res = await download(run, busy);
    expect(res.status).toBe(200);
    const ledger = await attachedLedger(res.pdf);
    expect(ledger.header).toMatchObject({ complete: false, entry_limit: 2000 });
    expect(ledger.entries).toHaveLength(2000);
    expect(new Set(ledger.entries.map((e) => e.text))).toContain('[done] task 2001');
    expect(await verifyAttributionPdf(new Uint8Array(res.pdf))).toMatchObject({ ok: true, entries: 2000 });
  });

  test('a bad project id is refused with 400 naming project_id; an unknown one is 404', async () => {
    const bad = await run.http.get('/projects/not-a-uuid/export/pdf');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/project_id/);
    const unknown = await run.http.get('/projects/6f1d6a8e-0000-4000-8000-000000000000/export/pdf');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/project not found/);
  });
});

describe.each(hostedBackend())('attribution report across tenants on %s', (_name, backend) => {
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project id answers 404 like an unknown one", async () => {
    const mine = await createProject(run.http, 'Mine');
    const other = await tenantClient(run.testApp, 'tenant-b');
    const theirs = await createProject(other.http, 'Theirs');
    const res = await run.http.get(`/projects/${theirs}/export/pdf`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'PROJECT_NOT_FOUND', detail: `project not found: ${theirs}` });
    expect((await other.http.get(`/projects/${mine}/export/pdf`)).status).toBe(404);
    expect((await other.http.get(`/projects/${theirs}/export/pdf`)).status).toBe(200);
  });
});
