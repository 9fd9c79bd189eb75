import { allowanceOf, planNamed, SELF_HOSTED_PLAN } from './plans';

describe('plans', () => {
  test('a stored plan name other than free or paid counts as free', () => {
    expect([planNamed('paid'), planNamed('free'), planNamed('PAID'), planNamed(null), planNamed(undefined), planNamed('enterprise')]).toEqual([
      'paid',
      'free',
      'free',
      'free',
      'free',
      'free',
    ]);
  });

  test('the free plan gets neither push nor queued assistant tasks; paid and self-hosted get both', () => {
    expect(allowanceOf('free')).toMatchObject({ pushMessaging: false, queuedAssistantTasks: false });
    expect(allowanceOf('paid')).toMatchObject({ pushMessaging: true, queuedAssistantTasks: true });
    expect(allowanceOf(SELF_HOSTED_PLAN)).toEqual(allowanceOf('paid'));
    expect(allowanceOf(undefined)).toEqual(allowanceOf('free'));
  });

  test('the paid plan allows at least what the free plan allows', () => {
    const [free, paid] = [allowanceOf('free'), allowanceOf('paid')];
    expect(paid.maxRegisteredMachines).toBeGreaterThanOrEqual(free.maxRegisteredMachines);
    expect(paid.maxSlotsPerMachine).toBeGreaterThanOrEqual(free.maxSlotsPerMachine);
  });
});
