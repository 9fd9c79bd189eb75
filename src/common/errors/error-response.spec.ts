import { QueryFailedError } from 'typeorm';
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
