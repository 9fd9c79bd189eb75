import { connect } from 'node:net';
import WebSocket from 'ws';
import { dashboardSocket } from './support/dashboard-socket';
import { Http, HttpResult } from './support/http';
import { startInstances } from './support/instances';
import { ServerProcess, startServerProcess } from './support/processes';
import { postgresUp } from './support/suites';
import { waitUntil } from './support/wait';

const LONG_POLLS = 200;
const SOCKETS = 50;
/** Questions waited on (GET /hitl/{id}?wait=), beside the message receives. */
const HITL_WAITS = 20;
/** The most the drain may take; the waits and sockets here all end at once, so the process exits long before. */
const DRAIN_SECONDS = 30;

interface Running {
  server: ServerProcess;
  token?: string;
  cleanup(): Promise<void>;
}

const setups: [string, () => Promise<Running>][] = [
  [
    'sqlite (self-hosted)',
    async () => {
      const server = await startServerProcess({ SERVICE_DRAIN_SECONDS: String(DRAIN_SECONDS), SERVICE_SWEEP_INTERVAL_SECONDS: '1' });
      return { server, cleanup: () => server.stop() };
    },
  ],
];
// Without Postgres (and without CI=true, which makes its absence a failure) only SQLite runs.
if (postgresUp || process.env.CI === 'true') {
  setups.push([
    'postgres (hosted)',
    async () => {
      const instances = await startInstances(1, { tenants: ['drained'], env: { SERVICE_DRAIN_SECONDS: String(DRAIN_SECONDS), SERVICE_SWEEP_INTERVAL_SECONDS: '1' } });
      return { server: instances.servers[0], token: instances.tenants[0].token, cleanup: instances.stop };
    },
  ]);
}

/** A figure of the instance's /metrics. */
async function gauge(http: Http, name: string): Promise<number> {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, 'm').exec((await http.get('/metrics')).text);
  return Number(match?.[1] ?? 0);
}

/** The lines of a server's output that tell of a problem: level warn or worse, pool errors, anything not a JSON log line. */
function troubles(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => {
      if (/already executing a query|pool.*(closed|ended)|Cannot use a pool/i.test(line)) return true;
      try {
        const { level } = JSON.parse(line) as { level?: string | number };
        return ['warn', 'error', 'fatal'].includes(String(level)) || (typeof level === 'number' && level >= 40);
      } catch {
        return true;
      }
    });
}

/**
 * SIGTERM to the built server (`node dist/src/main.js`) while it holds many long-polls, dashboard
 * WebSockets and a connection that sent nothing: every wait is answered, every socket is told to
 * reconnect (1001), the silent connection is closed, the process exits 0 as soon as they are (well within SERVICE_DRAIN_SECONDS), and nothing goes wrong on the way out.
 */
describe.each(setups)('the drain on SIGTERM (%s)', (_name, setup) => {
  let run: Running;

  beforeAll(async () => {
    run = await setup();
  }, 60_000);
  afterAll(async () => {
    await run?.cleanup();
  });

  test(`${LONG_POLLS} open long-polls and ${HITL_WAITS} HITL waits are answered 200, ${SOCKETS} WebSockets closed 1001 and a silent connection closed; exit 0 with no warning or error logged`, async () => {
    const http = new Http(run.server.url, run.token);
    const project = await http.post('/projects', { name: 'Draining' });
    expect(project.status).toBe(201);
    const p = project.body.id;

    const session = (await http.post('/sessions/register', { project_id: p, name: 'asker' })).body.id;
    const questions: string[] = [];
    for (let i = 0; i < HITL_WAITS; i++) questions.push((await http.post(`/projects/${p}/hitl`, { question: `Still there ${i}?`, session_id: session })).body.id);

    const polls: Promise<HttpResult>[] = Array.from({ length: LONG_POLLS }, (_, i) => http.post(`/projects/${p}/messages/receive`, { agent: `waiter-${i}`, wait_seconds: 300 }));
    const hitlWaits = questions.map((id) => http.get(`/hitl/${id}?wait=300`));
    await waitUntil(async () => (await gauge(http, 'baton_long_poll_waiters')) === LONG_POLLS + HITL_WAITS, 30_000, `${LONG_POLLS + HITL_WAITS} long-polls waiting`);

    const sockets = await Promise.all(Array.from({ length: SOCKETS }, () => dashboardSocket(run.server.url, run.token)));
    const closes = sockets.map(({ ws }) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code))));
    expect(await gauge(http, 'baton_websocket_clients')).toBe(SOCKETS);
    expect(sockets.every(({ ws }) => ws.readyState === WebSocket.OPEN)).toBe(true);

    // A connection that never sends a byte (a browser's speculative preconnect) does not hold the stop either.
    const { hostname, port } = new URL(run.server.url);
    const silent = connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => silent.once('connect', resolve).once('error', reject));
    const silentClosed = new Promise<void>((resolve) => silent.once('close', () => resolve()));
    silent.on('error', () => undefined);

    const child = run.server.child;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');

    const answers = await Promise.all(polls);
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text}`)).toEqual([]);
    expect(answers.every((a) => Array.isArray(a.body.messages))).toBe(true);
    // A question still open is answered as it stands: pending, for the client to wait on again elsewhere.
    const asked = await Promise.all(hitlWaits);
    expect(asked.map((a) => [a.status, a.body.status])).toEqual(questions.map(() => [200, 'pending']));
    expect(new Set(await Promise.all(closes))).toEqual(new Set([1001]));

    // Nothing is left in flight: the process exits without waiting for the drain's bound (where connections still open are cut).
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([exited, new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still running'), (DRAIN_SECONDS - 10) * 1000)))]);
    clearTimeout(timer);
    expect(code).toBe(0);
    await silentClosed;
    expect(troubles(run.server.output())).toEqual([]);
  }, 90_000);
});
