import { request } from 'node:http';
import { ADMIN_PASSWORD } from './support/admin';
import { Http } from './support/http';
import { ServerProcess, startServerProcess } from './support/processes';
import { sleep, waitUntil } from './support/wait';

/** A POST /waitlist whose body arrives in two parts: the request is in flight until `finish` sends the rest. */
function slowSignUp(url: string, email: string): { finish: () => void; answer: Promise<{ status: number; body: string }> } {
  const body = JSON.stringify({ email, note: 'sent slowly' });
  const half = Math.floor(body.length / 2);
  let finish = () => undefined as void;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${url}/waitlist`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.write(body.slice(0, half));
    finish = () => void req.end(body.slice(half));
  });
  return { finish, answer };
}

async function adminHttp(url: string): Promise<Http> {
  const login = await new Http(url).post('/admin/login', { password: ADMIN_PASSWORD });
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('baton_admin='))!
    .split(';')[0];
  return new Http(url).withHeaders({ cookie, origin: url });
}

describe.each([
  ['/admin/shutdown', 0],
  ['/admin/restart', 75],
])('POST %s on a built server (needs `npm run build`)', (path, code) => {
  let server: ServerProcess | undefined;

  afterEach(async () => {
    await server?.stop();
  });

  test(`answers 202, lets a request in flight finish, refuses new connections, then exits ${code}`, async () => {
    server = await startServerProcess({ SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD }, { timeoutMs: 30_000 });
    const admin = await adminHttp(server.url);
    const exited = new Promise<number | null>((resolve) => server!.child.once('exit', (c) => resolve(c)));
    const slow = slowSignUp(server.url, 'in-flight@example.test');
    await sleep(200);

    const res = await admin.post(path);
    expect([res.status, res.body.detail]).toEqual([202, expect.stringMatching(/requests in flight finish first/)]);
    await sleep(300);
    expect(server.child.exitCode).toBeNull(); // still draining: the slow request holds it
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();

    slow.finish();
    expect(await slow.answer).toEqual({ status: 201, body: expect.stringContaining('added to the waitlist') });
    expect(await exited).toBe(code);
    await waitUntil(() => server!.child.exitCode !== null, 5000, 'the process to exit');
  });
});
