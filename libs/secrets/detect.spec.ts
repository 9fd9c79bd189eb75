import { findSecret, isMachineLocalPath } from './detect';
import { ORDINARY, SECRETS, randomSample } from '../../test/support/secret-corpus';

describe('findSecret', () => {
  test(`the corpus holds at least 40 secret formats (${SECRETS.length})`, () => {
    expect(new Set(SECRETS.map(([name]) => name)).size).toBe(SECRETS.length);
    expect(SECRETS.length).toBeGreaterThanOrEqual(40);
  });

  test.each(SECRETS)('%s is recognised', (_name, value, kind) => {
    expect(findSecret(value)).toBe(kind);
  });

  test.each(SECRETS)('%s is recognised inside a longer value', (_name, value) => {
    expect(findSecret(`export VALUE="${value}" # do not commit`)).not.toBeNull();
  });

  test(`the ordinary corpus holds at least 40 values (${ORDINARY.length})`, () => {
    expect(ORDINARY.length).toBeGreaterThanOrEqual(40);
  });

  test.each(ORDINARY.map((v) => [v]))('%j is not a secret', (value) => {
    expect(findSecret(value)).toBeNull();
  });

  test('the answer names the kind, never any part of the value', () => {
    const body = randomSample('B64URL', 43);
    const kind = findSecret(`token ${`sk_service_${body}`} here`);
    expect(kind).toBe('baton_token');
    expect(kind).not.toContain(body.slice(0, 6));
  });
});

describe('isMachineLocalPath', () => {
  test.each([
    ['/home/ada/work/app', 'unix_absolute'],
    ['/Users/ada/src/app', 'unix_absolute'],
    ['/tmp', 'unix_absolute'],
    ['/srv/checkouts/app', 'unix_absolute'],
    ['cd /var/lib/app && npm test', 'unix_absolute'],
    ['--root=/opt/app', 'unix_absolute'],
    ['C:\\Users\\ada\\app', 'windows_absolute'],
    ['d:/work/app', 'windows_absolute'],
    ['\\\\fileserver\\share\\app', 'windows_unc'],
    ['~/work/app', 'home_relative'],
    ['~ada/app', 'home_relative'],
    ['$HOME/app', 'home_relative'],
    ['%USERPROFILE%\\app', 'home_relative'],
    ['file:///home/ada/app', 'file_url'],
  ])('%s is machine-local (%s)', (value, kind) => {
    expect(isMachineLocalPath(value)).toBe(kind);
  });

  test.each(ORDINARY.map((v) => [v]))('%j is not a machine-local path', (value) => {
    expect(isMachineLocalPath(value)).toBeNull();
  });
});
