import express from 'express';
import type { AddressInfo } from 'node:net';
import { extendRequestDeadline } from '../../../libs/tenancy';
import { requestDeadlines, watchedRequests } from './request-deadline';

describe('requestDeadlines', () => {
  let server: ReturnType<express.Express['listen']>;
  let url: string;
  const waiting: (() => void)[] = [];
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done()).toBe(true);
  };

  beforeAll(async () => {
    const app = express();
    app.use(requestDeadlines(150));
    app.get('/hangs', () => undefined); // never answers
    app.get('/long-poll', (_req, res) => {
      extendRequestDeadline(Date.now() + 400);
      setTimeout(() => res.json({ waited: true }), 300);
    });
    app.get('/waits', (req, res) => {
      // A long-poll answered when told to (by /wake), or at its moved deadline.
      extendRequestDeadline(Date.now() + Number(req.query.ms));
      // A deadline that moves again while the request is filed: at `later` ms, by `again` ms.
      if (req.query.again) setTimeout(() => extendRequestDeadline(Date.now() + Number(req.query.again)), Number(req.query.later));
      waiting.push(() => res.json({ woken: true }));
    });
    app.get('/wake', (_req, res) => {
      for (const wake of waiting.splice(0)) wake();
      res.json({});
    });
    app.get('/stream', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => res.end('data: two\n\n'), 300);
    });
    await new Promise<void>((resolve) => (server = app.listen(0, '127.0.0.1', () => resolve())));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test('a request still unanswered at its deadline gets 503 DEADLINE_EXCEEDED with Retry-After', async () => {
    const started = performance.now();
    const res = await fetch(`${url}/hangs`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({ code: 'DEADLINE_EXCEEDED', retryable: true });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test('a moved deadline is kept: the long-poll answers itself', async () => {
    const res = await fetch(`${url}/long-poll`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ waited: true });
  });

  test('a stream that has sent its headers is not cut', async () => {
    const res = await fetch(`${url}/stream`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('data: one\n\ndata: two\n\n');
  });

  test('open long-polls are filed until their deadline; each leaves the file when answered, before its deadline', async () => {
    const answers = Array.from({ length: 20 }, () => fetch(`${url}/waits?ms=60000`));
    // After a check every one of them is filed, and none is left among the requests begun since.
    await until(() => watchedRequests().filed === 20 && watchedRequests().begun === 0);
    await fetch(`${url}/wake`);
    for (const res of await Promise.all(answers)) expect(await res.json()).toEqual({ woken: true });
    await until(() => watchedRequests().filed === 0);
  });

  test('a client that goes away takes its long-poll out of the file', async () => {
    const abort = new AbortController();
    const answer = fetch(`${url}/waits?ms=60000`, { signal: abort.signal }).catch((error: Error) => error.name);
    await until(() => watchedRequests().filed === 1);
    abort.abort();
    expect(await answer).toBe('AbortError');
    await until(() => watchedRequests().filed === 0);
    waiting.splice(0);
  });

  test('a filed long-poll never answered gets 503 at its moved deadline, not before', async () => {
    const started = performance.now();
    const res = await fetch(`${url}/waits?ms=700`);
    const took = performance.now() - started;
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'DEADLINE_EXCEEDED' });
    // The usual deadline (150 ms) moved to 700 ms: answered at the first check after it.
    expect(took).toBeGreaterThanOrEqual(690);
    expect(took).toBeLessThan(2000);
    waiting.splice(0);
    expect(watchedRequests().filed).toBe(0);
  });

  test('a deadline moved again after the request was filed is followed', async () => {
    const started = performance.now();
    const res = await fetch(`${url}/waits?ms=500&later=300&again=700`);
    const took = performance.now() - started;
    expect(res.status).toBe(503);
    // Filed for 500 ms, then moved to 1,000 ms: the check at 500 ms files it again.
    expect(took).toBeGreaterThanOrEqual(990);
    expect(took).toBeLessThan(2500);
    waiting.splice(0);
  });
});
