import { beforeAnswer, runInRequestScope, runWithTenant, settleBeforeAnswer } from './tenant-context';

const TENANT = { tenantId: 't1', schema: null, role: null, byodbUrlEncrypted: null };

describe('work held for a request answer', () => {
  test('runs once per key when the answer settles, and not before', async () => {
    const ran: string[] = [];
    await runInRequestScope(async () => {
      expect(beforeAnswer('board:t1', async () => void ran.push('first'))).toBe(true);
      expect(beforeAnswer('board:t1', async () => void ran.push('second'))).toBe(true);
      expect(beforeAnswer('board:t2', async () => void ran.push('other'))).toBe(true);
      expect(ran).toEqual([]);
      await settleBeforeAnswer();
      expect(ran.sort()).toEqual(['other', 'second']);
      // Nothing held any more: no promise to wait for.
      expect(settleBeforeAnswer()).toBeUndefined();
    }, Date.now() + 1000);
  });

  test('a tenant scope opened inside the request holds the same answer; a failed work does not reject the settle', async () => {
    const ran: string[] = [];
    await runInRequestScope(async () => {
      runWithTenant(TENANT, () => beforeAnswer('event handler', async () => void ran.push('handler')));
      beforeAnswer('failing', async () => {
        throw new Error('Redis away');
      });
      await expect(settleBeforeAnswer()).resolves.toBeUndefined();
      expect(ran).toEqual(['handler']);
    }, Date.now() + 1000);
  });

  test('outside a request, or once the answer is leaving, the caller runs the work itself', async () => {
    expect(beforeAnswer('background', async () => undefined)).toBe(false);
    expect(runWithTenant(TENANT, () => beforeAnswer('background job', async () => undefined))).toBe(false);
    await runInRequestScope(async () => {
      expect(settleBeforeAnswer(undefined, true)).toBeUndefined();
      expect(beforeAnswer('too late', async () => undefined)).toBe(false);
    }, Date.now() + 1000);
  });

  test('work added while the held work runs is waited for too', async () => {
    const ran: string[] = [];
    await runInRequestScope(async () => {
      beforeAnswer('first', async () => {
        ran.push('first');
        beforeAnswer('then', async () => void ran.push('then'));
      });
      await settleBeforeAnswer();
      expect(ran).toEqual(['first', 'then']);
    }, Date.now() + 1000);
  });
});
