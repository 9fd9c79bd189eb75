import type { NextFunction, Request, Response } from 'express';
import { JsonLogger } from '../logging/json-logger';
import { bodyErrorHandler } from './body-error.handler';

function answer(error: Error & { status?: number; type?: string }, path = '/projects') {
  const lines: string[] = [];
  const sent: { status?: number; body?: Record<string, unknown> } = {};
  const res = {
    headersSent: false,
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: Record<string, unknown>) {
      sent.body = body;
      return this;
    },
  } as unknown as Response;
  const next = jest.fn() as NextFunction;
  bodyErrorHandler(new JsonLogger('info', (line) => lines.push(line)))(error, { path } as Request, res, next);
  return { ...sent, lines: lines.map((l) => JSON.parse(l) as Record<string, unknown>), next };
}

describe('bodyErrorHandler', () => {
  test('a body-parser refusal is a 4xx with a detail and logs nothing', () => {
    const parsed = answer(Object.assign(new Error('Unexpected token'), { status: 400, type: 'entity.parse.failed' }));
    expect(parsed).toMatchObject({ status: 400, body: { detail: 'request body is not valid JSON' }, lines: [] });
  });

  test('an unexpected failure is 500 {detail, error_id}, and the stack is logged under the same error_id', () => {
    const failed = answer(Object.assign(new Error('stream is not readable'), { status: 500, type: 'stream.not.readable' }));
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ detail: 'internal error', error_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(failed.lines).toEqual([expect.objectContaining({ level: 'error', error_id: failed.body!.error_id, stack: expect.stringContaining('stream is not readable') })]);
    expect(failed.next).not.toHaveBeenCalled();
  });
});
