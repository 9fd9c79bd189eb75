import express from 'express';
import type { AddressInfo } from 'node:net';
import { extendRequestDeadline } from '../../../libs/tenancy';
import { requestDeadlines } from './request-deadline';

describe('requestDeadlines', () => {
  let server: ReturnType<express.Express['listen']>;
  let url: string;

  beforeAll(async () => {
    const app = express();
    app.use(requestDeadlines(150));
    app.get('/hangs', () => undefined); // never answers
    app.get('/long-poll', (_req, res) => {
      extendRequestDeadline(Date.now() + 400);
      setTimeout(() => res.json({ waited: true }), 300);
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
});
