import { createHash } from 'node:crypto';

/**
 * The attribution ledger: what the PDF report shows, as data. It is embedded in
 * the PDF, and both the report's visible text and the verifier are derived from
 * it by the functions below, so that `npm run verify-export` checks the very
 * rules the export used. No Nest and no database here: the command-line
 * verifier imports this file alone.
 */

export const LEDGER_FORMAT = 'baton-attribution-ledger/1';
export const LEDGER_FILE_NAME = 'baton-ledger.json';
/** Longest visible text of an entry; the ledger keeps it whole. */
const VISIBLE_TEXT_MAX = 400;

/** Who did what and when, before it is numbered and chained. */
export interface LedgerEntryDraft {
  at: string;
  kind: string;
  /** The person: the record's human_id, else the human_id of its session. */
  person: string | null;
  session_id: string | null;
  /** The agent: the name its session registered with. */
  agent: string | null;
  /** The task, sprint item, question, decision, handoff or session the entry is about. */
  subject_id: string | null;
  text: string;
}

export interface LedgerEntry extends LedgerEntryDraft {
  seq: number;
  /** SHA-256 (hex) of the previous hash, a line feed and the canonical JSON of the entry without `hash`. */
  hash: string;
}

export interface LedgerHeader {
  project_id: string;
  project_name: string;
  generated_at: string;
  entry_limit: number;
  /** False when older activity was left out to stay within entry_limit. */
  complete: boolean;
}

export interface Ledger {
  format: typeof LEDGER_FORMAT;
  header: LedgerHeader;
  /** SHA-256 of the canonical JSON of `{format, header}`: the chain's first "previous hash". */
  genesis_hash: string;
  entries: LedgerEntry[];
  final_hash: string;
}

/** JSON with object keys sorted at every level and no whitespace: one text per value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export function genesisHash(header: LedgerHeader): string {
  return sha256(canonicalJson({ format: LEDGER_FORMAT, header }));
}

export function entryHash(previous: string, entry: Omit<LedgerEntry, 'hash'>): string {
  return sha256(`${previous}\n${canonicalJson(entry)}`);
}

/** Numbers the drafts in the order given and chains them. */
export function sealLedger(header: LedgerHeader, drafts: LedgerEntryDraft[]): Ledger {
  const genesis = genesisHash(header);
  let previous = genesis;
  const entries = drafts.map((draft, i) => {
    const entry = { seq: i + 1, ...draft };
    previous = entryHash(previous, entry);
    return { ...entry, hash: previous };
  });
  return { format: LEDGER_FORMAT, header, genesis_hash: genesis, entries, final_hash: previous };
}

/** The chain recomputed from the entries' content, ignoring the hashes they carry. */
export function recomputeChain(ledger: Pick<Ledger, 'header' | 'entries'>): { genesis: string; hashes: string[]; final: string } {
  const genesis = genesisHash(ledger.header);
  let previous = genesis;
  const hashes = ledger.entries.map(({ hash: _stored, ...entry }) => (previous = entryHash(previous, entry)));
  return { genesis, hashes, final: previous };
}

/** What the report prints of a text: printable ASCII (the standard PDF fonts' safe range), one line, clipped. */
export function visible(text: string, max = VISIBLE_TEXT_MAX): string {
  const flat = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[^\x20-\x7e]/g, '?');
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

export type ReportLineStyle = 'title' | 'meta' | 'final' | 'heading' | 'actor' | 'body' | 'hash';

export interface ReportLine {
  style: ReportLineStyle;
  text: string;
  /** The entry the line shows, for error messages. */
  seq?: number;
}

export const FINAL_HASH_LABEL = 'Final hash (SHA-256):';

/** Every line of text the report shows, in order: the renderer prints them, the verifier expects them. */
export function reportLines(ledger: Ledger): ReportLine[] {
  const { header } = ledger;
  const lines: ReportLine[] = [
    { style: 'title', text: 'Baton attribution report' },
    { style: 'meta', text: visible(`Project: ${header.project_name} (${header.project_id})`) },
    { style: 'meta', text: `Generated: ${header.generated_at}` },
    {
      style: 'meta',
      text: header.complete
        ? `Entries: ${ledger.entries.length} (all recorded activity)`
        : `Entries: ${ledger.entries.length} (the newest ${header.entry_limit}; older activity is not included)`,
    },
    { style: 'final', text: `${FINAL_HASH_LABEL} ${ledger.final_hash}` },
    { style: 'meta', text: `The ledger is attached as ${LEDGER_FILE_NAME}. Check this file with: npm run verify-export -- <file>.pdf` },
  ];
  for (const e of ledger.entries) {
    lines.push({ style: 'heading', seq: e.seq, text: visible(`#${e.seq} | ${e.at} | ${e.kind}`) });
    lines.push({ style: 'actor', seq: e.seq, text: visible(`person: ${e.person ?? '-'} | agent: ${e.agent ?? '-'} | session: ${e.session_id ?? '-'}`) });
    if (e.text) lines.push({ style: 'body', seq: e.seq, text: visible(e.text) });
    lines.push({ style: 'hash', seq: e.seq, text: `hash ${e.hash}` });
  }
  return lines;
}
