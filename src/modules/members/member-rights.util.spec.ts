import { mayChange, mayInvite, mayRemove } from './member-rights.util';

describe('member rights', () => {
  test('owners invite any role, admins invite admins and members, members invite no one', () => {
    expect(['owner', 'admin', 'member'].map((r) => mayInvite('owner', r as never))).toEqual([true, true, true]);
    expect(['owner', 'admin', 'member'].map((r) => mayInvite('admin', r as never))).toEqual([false, true, true]);
    expect(['owner', 'admin', 'member'].map((r) => mayInvite('member', r as never))).toEqual([false, false, false]);
  });

  test('admins change admins and members but neither touch an owner nor make one', () => {
    expect(mayChange('owner', 'owner', 'member')).toBe(true);
    expect(mayChange('admin', 'member', 'admin')).toBe(true);
    expect(mayChange('admin', 'admin', undefined)).toBe(true);
    expect(mayChange('admin', 'owner', undefined)).toBe(false);
    expect(mayChange('admin', 'member', 'owner')).toBe(false);
    expect(mayChange('member', 'member', undefined)).toBe(false);
  });

  test('anyone may leave; owners remove anyone, admins remove non-owners, members no one else', () => {
    expect(mayRemove('member', 'member', true)).toBe(true);
    expect(mayRemove('owner', 'owner', false)).toBe(true);
    expect(mayRemove('admin', 'admin', false)).toBe(true);
    expect(mayRemove('admin', 'owner', false)).toBe(false);
    expect(mayRemove('member', 'member', false)).toBe(false);
  });
});
