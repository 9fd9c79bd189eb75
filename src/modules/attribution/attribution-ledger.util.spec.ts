import { createHash } from 'node:crypto';
import { canonicalJson, LedgerEntryDraft, recomputeChain, reportLines, sealLedger, visible } from './attribution-ledger.util';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const header = { project_id: 'p1', project_name: 'Demo', generated_at: '2026-01-01T00:00:00.000Z', entry_limit: 2000, complete: true };
const draft = (text: string): LedgerEntryDraft => ({ at: '2026-01-01T00:00:00.000Z', kind: 'task.logged', person: 'ada', session_id: null, agent: null, subject_id: 't1', text });

describe('attribution ledger', () => {
  test('canonicalJson sorts keys at every level, drops undefined and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'é' }], c: undefined } })).toBe('{"a":{"d":[3,{"y":"é","z":null}]},"b":1}');
  });

  test('each hash covers the previous hash and the canonical entry; the first links to the header', () => {
    const ledger = sealLedger(header, [draft('one'), draft('two')]);
    expect(ledger.genesis_hash).toBe(sha256(canonicalJson({ format: 'baton-attribution-ledger/1', header })));
    const [first, second] = ledger.entries;
    expect(first.hash).toBe(sha256(`${ledger.genesis_hash}\n${canonicalJson({ seq: 1, ...draft('one') })}`));
    expect(second.hash).toBe(sha256(`${first.hash}\n${canonicalJson({ seq: 2, ...draft('two') })}`));
    expect(ledger.final_hash).toBe(second.hash);
    expect(sealLedger(header, []).final_hash).toBe(ledger.genesis_hash);
  });

  test('recomputeChain ignores the stored hashes: a changed entry, header or order gives another final hash', () => {
    const ledger = sealLedger(header, [draft('one'), draft('two')]);
    expect(recomputeChain(ledger).final).toBe(ledger.final_hash);
    expect(recomputeChain({ ...ledger, entries: [ledger.entries[0], { ...ledger.entries[1], text: 'tw0' }] }).final).not.toBe(ledger.final_hash);
    expect(recomputeChain({ ...ledger, header: { ...header, project_name: 'Other' } }).final).not.toBe(ledger.final_hash);
    expect(recomputeChain({ ...ledger, entries: [...ledger.entries].reverse() }).final).not.toBe(ledger.final_hash);
  });

  test('visible text is one line of printable ASCII, clipped', () => {
    expect(visible('Café ☕\n\tdone ')).toBe('Caf? ? done');
    expect(visible('x'.repeat(10), 8)).toBe('xxxxx...');
  });

  test('the report prints the final hash, says when older activity is left out, and shows each entry', () => {
    const ledger = sealLedger({ ...header, complete: false }, [draft('Parser rewrite')]);
    const lines = reportLines(ledger).map((l) => l.text);
    expect(lines).toContain(`Final hash (SHA-256): ${ledger.final_hash}`);
    expect(lines).toContain('Entries: 1 (the newest 2000; older activity is not included)');
    expect(lines.slice(-4)).toEqual(['#1 | 2026-01-01T00:00:00.000Z | task.logged', 'person: ada | agent: - | session: -', 'Parser rewrite', `hash ${ledger.entries[0].hash}`]);
  });
});
