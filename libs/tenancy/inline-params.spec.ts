import { Client } from 'pg';
import { PG_ADMIN_URL } from '../../test/support/services';
import { inlineParams, sqlLiteral } from './inline-params';

describe('inlineParams', () => {
  test('replaces each placeholder with its literal, by number, as often as it is used', () => {
    expect(inlineParams('SELECT * FROM t WHERE a = $1 AND b = $2 OR a = $1', ['x', 7])).toBe("SELECT * FROM t WHERE a = 'x' AND b = '7' OR a = 'x'");
    expect(inlineParams('SELECT $10, $1', Array.from({ length: 10 }, (_, i) => i + 1))).toBe("SELECT '10', '1'");
  });

  test('leaves placeholders inside literals, quoted names, dollar quotes and comments alone', () => {
    const sql = [
      "SELECT '$1', 'it''s $1', E'\\' $1', \"col$1\", \"a\"\"$1\", $$ $1 $$, $tag$ $1 $tag$, x$1 -- $1",
      '/* $1 /* nested $1 */ still $1 */ $1',
    ].join('\n');
    expect(inlineParams(sql, ['v'])).toBe(
      [
        "SELECT '$1', 'it''s $1', E'\\' $1', \"col$1\", \"a\"\"$1\", $$ $1 $$, $tag$ $1 $tag$, x$1 -- $1",
        "/* $1 /* nested $1 */ still $1 */ 'v'",
      ].join('\n'),
    );
  });

  test('quotes values so that no value can end its literal', () => {
    expect(inlineParams('SELECT $1', ["x'); DROP TABLE t; --"])).toBe("SELECT 'x''); DROP TABLE t; --'");
    // A backslash makes pg write an E'' literal, preceded by a space.
    expect(inlineParams('SELECT $1', ['a\\b'])).toBe("SELECT  E'a\\\\b'");
  });

  test('converts values as pg binds them: null, booleans, dates, arrays, objects, buffers', () => {
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(undefined)).toBe('NULL');
    expect(sqlLiteral(true)).toBe("'true'");
    expect(sqlLiteral(['a', 'b"c'])).toBe(` E'{"a","b\\\\"c"}'`);
    expect(sqlLiteral({ k: "v'" })).toBe(`'{"k":"v''"}'`);
    expect(sqlLiteral(Buffer.from([0, 255]))).toBe(" E'\\\\x00ff'");
  });

  test('refuses a NUL character the way Postgres refuses it as a parameter', () => {
    expect(() => sqlLiteral('a\u0000b')).toThrow(expect.objectContaining({ code: '22021' }));
  });

  test('refuses a placeholder without a parameter', () => {
    expect(() => inlineParams('SELECT $2', ['only one'])).toThrow(/\$2/);
  });
});

/** The same statements and values give the same rows inlined as bound, on a real server. */
describe('inlineParams against Postgres', () => {
  let client: Client | undefined;
  beforeAll(async () => {
    client = new Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
  });
  afterAll(() => client?.end());

  const cases: [string, unknown[]][] = [
    ['SELECT $1::text AS v, $2::int AS n, $3::boolean AS b', ["O'Reilly \\ \u00e9\u{1f600}", -42, false]],
    ['SELECT $1::timestamptz AS t', [new Date('2026-11-22T04:00:00.123Z')]],
    ['SELECT $1::jsonb AS j', [JSON.stringify({ a: [1, 'two', null], q: "it's" })]],
    ['SELECT $1::text[] AS a', [['x', 'y z', 'q"uote', "s'ingle", 'back\\slash']]],
    ['SELECT $1::bytea AS b', [Buffer.from([0, 1, 2, 255])]],
    ['SELECT $1::text IS NULL AS nothing', [null]],
    ['SELECT $1 AS untyped, $2 + 1 AS sum', ['plain', 41]],
    ['SELECT x FROM (VALUES (1), (2), (3)) v(x) WHERE x IN ($1, $2) ORDER BY x LIMIT $3', [1, 3, 5]],
  ];
  test.each(cases)('%s', async (sql, params) => {
    const bound = await client!.query(sql, params);
    const inlined = await client!.query(inlineParams(sql, params));
    expect(inlined.rows).toEqual(bound.rows);
  });
});
