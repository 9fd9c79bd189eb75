import { checkPackage, editDistance, PkgRule, typosquatOf } from './pkg-guard.util';

const rules: PkgRule[] = [
  { pattern: '@acme/*', action: 'allow', reason: null },
  { pattern: 'left-pad', action: 'deny', reason: 'we vendor it' },
  { pattern: 'lodash@4.17.20', action: 'deny', reason: null },
  { pattern: 'expres', action: 'allow', reason: 'our own fork' },
];

describe('the package-install gate', () => {
  test('a deny rule wins, with its reason; an exact-version rule only hits that version', () => {
    expect(checkPackage('npm', 'left-pad', '1.3.0', rules)).toMatchObject({ allowed: false, rule: 'deny_rule', reason: 'we vendor it' });
    expect(checkPackage('npm', 'lodash', '4.17.20', rules)).toMatchObject({ allowed: false, rule: 'deny_rule', matched: 'lodash@4.17.20' });
    expect(checkPackage('npm', 'lodash', '4.17.21', rules)).toMatchObject({ allowed: true, rule: 'default' });
  });

  test('known-malicious releases are refused; other releases of the same package pass with a note', () => {
    expect(checkPackage('npm', 'event-stream', '3.3.6', [])).toMatchObject({ allowed: false, rule: 'known_malicious' });
    expect(checkPackage('npm', 'flatmap-stream', '0.1.0', [])).toMatchObject({ allowed: false, reason: expect.stringContaining('every release') });
    expect(checkPackage('npm', 'event-stream', '4.0.1', []).reason).toContain('this one is not listed');
    expect(checkPackage('npm', 'event-stream', '3.3.6', [{ pattern: 'event-stream', action: 'allow', reason: null }])).toMatchObject({ allowed: false });
  });

  test('typo-squats of popular names are refused, an allow rule clears one, scopes are allowed by glob', () => {
    expect(typosquatOf('npm', 'expresss')).toBe('express');
    expect(typosquatOf('npm', 'raect')).toBe('react');
    expect(typosquatOf('npm', 'crossenv')).toBe('cross-env');
    expect(typosquatOf('pypi', 'reqeusts')).toBe('requests');
    expect(typosquatOf('npm', 'express')).toBeNull();
    expect(typosquatOf('npm', 'fastify')).toBeNull();
    expect(checkPackage('npm', 'axois', null, [])).toMatchObject({ allowed: false, rule: 'typosquat', matched: 'axios' });
    expect(checkPackage('npm', 'expres', null, rules)).toMatchObject({ allowed: true, rule: 'allow_rule', reason: 'our own fork' });
    expect(checkPackage('npm', '@acme/ui', '1.0.0', rules)).toMatchObject({ allowed: true, rule: 'allow_rule' });
  });

  test('edit distance counts an adjacent swap as one', () => {
    expect(editDistance('react', 'raect')).toBe(1);
    expect(editDistance('abc', 'abcdef', 1)).toBe(2);
  });
});
