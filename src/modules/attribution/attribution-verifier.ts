import { FINAL_HASH_LABEL, Ledger, LEDGER_FILE_NAME, LEDGER_FORMAT, recomputeChain, reportLines } from './attribution-ledger.util';

export interface VerifyResult {
  ok: boolean;
  /** What failed, one sentence each; empty when ok. */
  problems: string[];
  entries: number;
  final_hash: string | null;
}

interface PdfContent {
  attachments: Map<string, Uint8Array>;
  text: string;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** pdfjs-dist is published as ES modules only: loaded when first needed. */
async function loadPdfJs(): Promise<PdfJs> {
  return import('pdfjs-dist/legacy/build/pdf.mjs');
}

/** The attached files and the visible text of every page, in order. */
async function readPdf(bytes: Uint8Array): Promise<PdfContent> {
  const pdfjs = await loadPdfJs();
  const pdf = await pdfjs.getDocument({ data: bytes, disableFontFace: true, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const attachments = new Map<string, Uint8Array>();
    const found = ((await pdf.getAttachments()) ?? {}) as Record<string, { filename: string; content: Uint8Array }>;
    for (const [name, file] of Object.entries(found)) attachments.set(name, file.content);
    const parts: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      for (const item of content.items) if ('str' in item) parts.push(item.str);
    }
    return { attachments, text: parts.join(' ') };
  } finally {
    await pdf.destroy();
  }
}

const squeeze = (text: string) => text.replace(/\s+/g, '');

function parseLedger(bytes: Uint8Array | undefined, problems: string[]): Ledger | null {
  if (!bytes) {
    problems.push(`the PDF has no attached ${LEDGER_FILE_NAME}`);
    return null;
  }
  let ledger: Ledger;
  try {
    ledger = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as Ledger;
  } catch (error) {
    problems.push(`the attached ${LEDGER_FILE_NAME} is not JSON: ${(error as Error).message}`);
    return null;
  }
  if (ledger?.format !== LEDGER_FORMAT || !ledger.header || !Array.isArray(ledger.entries)) {
    problems.push(`the attached ${LEDGER_FILE_NAME} is not a ${LEDGER_FORMAT} ledger`);
    return null;
  }
  return ledger;
}

/** Where the visible text stops matching the lines the ledger says it shows. */
function compareVisibleText(ledger: Ledger, text: string, problems: string[]): void {
  const actual = squeeze(text);
  let at = 0;
  for (const line of reportLines(ledger)) {
    const expected = squeeze(line.text);
    if (actual.startsWith(expected, at)) {
      at += expected.length;
      continue;
    }
    const where = line.seq ? `entry #${line.seq}` : 'the report header';
    problems.push(`the visible text of ${where} differs from the ledger: expected "${line.text.slice(0, 120)}"`);
    return;
  }
  if (at < actual.length) problems.push(`the visible text holds more than the ledger: "${actual.slice(at, at + 120)}"`);
}

function checkChain(ledger: Ledger, problems: string[]): string {
  const chain = recomputeChain(ledger);
  if (chain.genesis !== ledger.genesis_hash) problems.push('the ledger header was changed: its genesis hash does not match');
  ledger.entries.forEach((entry, i) => {
    if (entry.seq !== i + 1) problems.push(`ledger entry at position ${i + 1} is numbered #${entry.seq}`);
    if (chain.hashes[i] !== entry.hash) problems.push(`ledger entry #${i + 1} does not match its hash (changed, inserted or removed)`);
  });
  if (chain.final !== ledger.final_hash) problems.push(`the ledger's final hash ${ledger.final_hash} is not the chain's ${chain.final}`);
  return chain.final;
}

/**
 * The final hash the report prints: read where the header puts it (entry texts may quote a hash
 * line of their own); when the header itself was edited, the first hash line found.
 */
function printedFinalHash(ledger: Ledger, text: string): string | null {
  const actual = squeeze(text);
  const lines = reportLines(ledger);
  const before = lines
    .slice(
      0,
      lines.findIndex((l) => l.style === 'final'),
    )
    .map((l) => squeeze(l.text))
    .join('');
  const label = squeeze(FINAL_HASH_LABEL);
  const hex = /^[0-9a-f]{64}/;
  if (actual.startsWith(before + label)) return hex.exec(actual.slice(before.length + label.length))?.[0] ?? null;
  const at = actual.indexOf(label);
  return at < 0 ? null : (hex.exec(actual.slice(at + label.length))?.[0] ?? null);
}

function checkPrintedHash(ledger: Ledger, text: string, final: string, problems: string[]): void {
  const printed = printedFinalHash(ledger, text);
  if (!printed) problems.push('the report prints no final hash');
  else if (printed !== final) problems.push(`the printed final hash ${printed} is not the chain's ${final}`);
}

/**
 * Checks an exported attribution PDF: the attached ledger's hash chain is
 * recomputed from its entries and compared with every stored hash, with the
 * final hash printed in the report, and the report's visible text with the
 * lines the ledger's entries give. Any edit to the ledger, the printed hash or
 * the visible entries after export makes it fail.
 */
export async function verifyAttributionPdf(bytes: Uint8Array): Promise<VerifyResult> {
  const problems: string[] = [];
  let content: PdfContent;
  try {
    content = await readPdf(bytes);
  } catch (error) {
    return { ok: false, problems: [`not a readable PDF: ${(error as Error).message}`], entries: 0, final_hash: null };
  }
  const ledger = parseLedger(content.attachments.get(LEDGER_FILE_NAME), problems);
  if (!ledger) return { ok: false, problems, entries: 0, final_hash: null };
  try {
    const final = checkChain(ledger, problems);
    checkPrintedHash(ledger, content.text, final, problems);
    compareVisibleText(ledger, content.text, problems);
    return { ok: problems.length === 0, problems, entries: ledger.entries.length, final_hash: final };
  } catch (error) {
    // A hand-edited ledger may hold values of any type: whatever breaks the checks fails verification.
    return { ok: false, problems: [...problems, `the attached ${LEDGER_FILE_NAME} is malformed: ${(error as Error).message}`], entries: 0, final_hash: null };
  }
}
