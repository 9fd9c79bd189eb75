import express from 'express';
import type { Server } from 'node:http';
import { JsonLogger } from '../logging/json-logger';
import { bodyErrorHandler } from './body-error.handler';

/**
 * The handler behind a real Express app and a real JSON body parser: a body the
 * parser refuses, and a failure in front of the handler that is nobody's input
 * (raised by a middleware, as a broken body stream would be).
 */
describe('bodyErrorHandler', () => {
  const lines: string[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use('/broken', (_req, _res, next) => next(Object.assign(new Error('stream is not readable'), { status: 500, type: 'stream.not.readable' })));
    app.use(express.json());
    app.use(bodyErrorHandler(new JsonLogger('info', (line) => lines.push(line))));
    app.post('/ok', (_req, res) => void res.json({ ok: true }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = async (path: string, body: string) => {
    const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test('a body the parser refuses is 400 with a detail and logs nothing', async () => {
    expect(await post('/ok', '{"broken')).toEqual({ status: 400, body: { detail: 'request body is not valid JSON' } });
    expect(lines).toEqual([]);
  });

  test('an unexpected failure is 500 {detail, error_id}, and the stack is logged under the same error_id', async () => {
    const res = await post('/broken', '{}');
    expect(res).toEqual({ status: 500, body: { detail: 'internal error', error_id: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.error_id === res.body.error_id);
    expect(logged).toEqual([expect.objectContaining({ level: 'error', stack: expect.stringContaining('stream is not readable') })]);
  });
});
