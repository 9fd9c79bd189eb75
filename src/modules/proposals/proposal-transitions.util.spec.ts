import { isReviewable, nextProposalStatus } from './proposal-transitions.util';

describe('workspace proposal transitions', () => {
  test.each([
    ['raw', 'forward', 'investigating'],
    ['investigating', 'forward', 'rejected'],
    ['rejected', 'forward', null],
    ['rejected', 'back', 'investigating'],
    ['investigating', 'back', 'raw'],
    ['raw', 'back', null],
    ['promoted', 'forward', null],
    ['promoted', 'back', null],
  ] as const)('%s moved %s becomes %s', (from, direction, to) => {
    expect(nextProposalStatus(from, direction)).toBe(to);
  });

  test('only raw and investigating proposals can be promoted', () => {
    expect(['raw', 'investigating', 'rejected', 'promoted'].filter((s) => isReviewable(s as never))).toEqual(['raw', 'investigating']);
  });
});
