import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('nestsDeeperThan', () => {
  test('counts arrays and objects alike, up to the limit inclusive', () => {
    expect(nestsDeeperThan(bytes(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`))).toBe(false);
    expect(nestsDeeperThan(bytes(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`))).toBe(true);
    expect(nestsDeeperThan(bytes(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`))).toBe(true);
    expect(nestsDeeperThan(bytes('{"a": [1, {"b": []}], "c": {}}'), 4)).toBe(false);
    expect(nestsDeeperThan(bytes('{"a": [1, {"b": []}], "c": {}}'), 3)).toBe(true);
  });

  test('siblings do not add up: depth goes back down when a container closes', () => {
    expect(nestsDeeperThan(bytes(`[${'[[]],'.repeat(10_000)}[]]`), 3)).toBe(false);
  });

  test('brackets inside strings, escaped quotes included, are text', () => {
    expect(nestsDeeperThan(bytes(JSON.stringify({ a: '[[[[{{{{', b: '\\"[[[[', c: '"{{{' })), 1)).toBe(false);
    expect(nestsDeeperThan(bytes('["\\\\", [[]]]'), 2)).toBe(true);
  });

  test('an unclosed deep body is caught without parsing it', () => {
    expect(nestsDeeperThan(bytes('['.repeat(100_000)))).toBe(true);
  });
});
