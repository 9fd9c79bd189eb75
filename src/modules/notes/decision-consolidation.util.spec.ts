import { consolidationPrompt, parseConsolidation } from './decision-consolidation.util';

describe('decision consolidation answers', () => {
  const shown = new Set(['a', 'b', 'c', 'd']);
  const parse = (value: unknown) => parseConsolidation(typeof value === 'string' ? value : JSON.stringify(value), shown);

  test('groups over shown entries are taken', () => {
    expect(parse({ groups: [{ keep_id: 'a', duplicate_ids: ['b', 'c'] }] })).toEqual({ ok: true, groups: [{ keep_id: 'a', duplicate_ids: ['b', 'c'] }] });
    expect(parse({ groups: [] })).toEqual({ ok: true, groups: [] });
  });

  test.each([
    ['```json\n{}```', /not JSON/],
    [{ groups: {} }, /no groups array/],
    [{ groups: ['a'] }, /group 0 is not/],
    [{ groups: [{ keep_id: 'a', duplicate_ids: [] }] }, /no duplicates/],
    [{ groups: [{ keep_id: 'a', duplicate_ids: ['z'] }] }, /not in the log/],
    [{ groups: [{ keep_id: 'a', duplicate_ids: [1] }] }, /not in the log/],
    [{ groups: [{ keep_id: 'a', duplicate_ids: ['a'] }] }, /named twice/],
    [
      {
        groups: [
          { keep_id: 'a', duplicate_ids: ['b'] },
          { keep_id: 'b', duplicate_ids: ['c'] },
        ],
      },
      /named twice/,
    ],
  ])('refused whole: %j', (answer, reason) => {
    expect(parse(answer)).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  test('the prompt lists every entry as one JSON line, bodies cut', () => {
    const { user } = consolidationPrompt([{ id: 'a', title: 'T', body: 'x'.repeat(3000), created_at: new Date('2026-01-01T00:00:00Z') }]);
    expect(JSON.parse(user)).toEqual({ id: 'a', title: 'T', body: 'x'.repeat(2000), created_at: '2026-01-01T00:00:00.000Z' });
  });
});
