import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryFailedError } from 'typeorm';
import { DatabaseBusyError } from '../../../libs/tenancy';
import { toErrorResponse } from './error-response';

/** A failure as TypeORM hands it on: the driver's error, with its SQLSTATE, under driverError. */
function pgFailure(code: string, message: string): QueryFailedError {
  return new QueryFailedError('INSERT INTO notes ...', [], Object.assign(new Error(message), { code }));
}

describe('toErrorResponse for database conflicts', () => {
  test.each([
    ['40P01', 'deadlock detected'],
    ['40001', 'could not serialize access due to concurrent update'],
  ])('%s (%s) is a retryable 503 with Retry-After, not a 500', (code, message) => {
    const answer = toErrorResponse(pgFailure(code, message));
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ detail: 'the write met a concurrent one and was undone; try again', code: 'DATABASE_CONFLICT', retryable: true });
    expect(answer.headers).toEqual({ 'Retry-After': '2' });
    expect(answer.unexpected).toBeUndefined();
  });

  test('another database error stays an internal error', () => {
    const answer = toErrorResponse(pgFailure('42703', 'column "nope" does not exist'));
    expect(answer.status).toBe(500);
    expect(answer.unexpected).toBeDefined();
  });
});

describe('toErrorResponse for a busy database', () => {
  const busy = { detail: 'the database is busy with other work right now; try again in a few seconds', code: 'DATABASE_BUSY', retryable: true };

  test("a workspace's share of the pool that stayed taken is a retryable 503 DATABASE_BUSY", () => {
    const answer = toErrorResponse(new DatabaseBusyError(14950));
    expect(answer).toEqual({ status: 503, body: busy, headers: { 'Retry-After': '2' } });
  });

  test("SQLite's file locked by another writer past the busy timeout is the same answer", () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-busy-'));
    const holder = new Database(join(dir, 'baton.sqlite'));
    const writer = new Database(join(dir, 'baton.sqlite'), { timeout: 0 });
    try {
      holder.exec('CREATE TABLE notes (body TEXT); BEGIN EXCLUSIVE');
      let failure: unknown;
      try {
        writer.prepare("INSERT INTO notes VALUES ('x')").run();
      } catch (error) {
        failure = new QueryFailedError("INSERT INTO notes VALUES ('x')", [], error as Error);
      }
      expect((failure as QueryFailedError<Error & { code?: string }>).driverError.code).toBe('SQLITE_BUSY');
      expect(toErrorResponse(failure)).toEqual({ status: 503, body: busy, headers: { 'Retry-After': '2' } });
    } finally {
      holder.close();
      writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
