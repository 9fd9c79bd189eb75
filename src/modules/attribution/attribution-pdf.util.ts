import { canonicalJson, Ledger, LEDGER_FILE_NAME, reportLines, ReportLineStyle } from './attribution-ledger.util';

const STYLES: Record<ReportLineStyle, { font: string; size: number; gap: number; color: string }> = {
  title: { font: 'Helvetica-Bold', size: 16, gap: 8, color: '#000000' },
  meta: { font: 'Helvetica', size: 9, gap: 2, color: '#000000' },
  final: { font: 'Courier-Bold', size: 8, gap: 2, color: '#000000' },
  heading: { font: 'Helvetica-Bold', size: 9, gap: 0, color: '#000000' },
  actor: { font: 'Helvetica', size: 8, gap: 0, color: '#333333' },
  body: { font: 'Helvetica', size: 9, gap: 0, color: '#000000' },
  hash: { font: 'Courier', size: 7, gap: 6, color: '#666666' },
};

/** pdfkit and its font engine weigh about 28 MB once loaded: an instance loads them at its first report, not at boot. */
const loadPdfKit = () => import('pdfkit');
let pdfkit: ReturnType<typeof loadPdfKit> | undefined;

/**
 * The report as a PDF: the ledger's report lines, in the standard fonts, and
 * the ledger itself as an attached file. Streams are left uncompressed so the
 * ledger can be read (and its tampering seen) with any text tool; the report
 * carries no other text (no page headers or numbers), so its visible text is
 * exactly what `reportLines` says.
 */
export async function renderAttributionPdf(ledger: Ledger): Promise<Buffer> {
  const { default: PDFDocument } = await (pdfkit ??= loadPdfKit());
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: false,
    info: { Title: `Baton attribution report: ${ledger.header.project_name}`, Author: 'Baton', Subject: `final hash ${ledger.final_hash}` },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const line of reportLines(ledger)) {
    const style = STYLES[line.style];
    doc.font(style.font).fontSize(style.size).fillColor(style.color).text(line.text, { paragraphGap: style.gap });
  }
  // One entry per line keeps the attached ledger readable; its hashes use the canonical form, not this layout.
  const { entries, ...rest } = ledger;
  const json = `${JSON.stringify(rest, null, 1).replace(/\n}$/, '')},\n "entries": [\n${entries.map((e) => `  ${canonicalJson(e)}`).join(',\n')}\n ]\n}\n`;
  doc.file(Buffer.from(json, 'utf8'), {
    name: LEDGER_FILE_NAME,
    type: 'application/json',
    description: 'Baton attribution ledger (hash-chained entries)',
    creationDate: new Date(ledger.header.generated_at),
    modifiedDate: new Date(ledger.header.generated_at),
  });
  doc.end();
  return done;
}
