import { readFile } from 'node:fs/promises';
import { verifyAttributionPdf } from '../modules/attribution/attribution-verifier';

/**
 * `npm run verify-export -- report.pdf`: checks an attribution report
 * exported by `GET /projects/{project_id}/export/pdf`. Prints `OK` with the
 * number of entries and the final hash (exit 0), or `FAILED` and what failed
 * (exit 1). Works offline: it needs the file only, not a running Baton.
 */
async function main() {
  const files = process.argv.slice(2);
  if (files.length !== 1) {
    process.stderr.write('usage: npm run verify-export -- <report.pdf>\n');
    process.exit(1);
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(files[0]));
  } catch (error) {
    process.stderr.write(`cannot read ${files[0]}: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const result = await verifyAttributionPdf(bytes);
  if (result.ok) {
    process.stdout.write(`OK: ${result.entries} entries, final hash ${result.final_hash}\n`);
    return;
  }
  process.stdout.write(`FAILED: ${files[0]} was changed after export or is not a Baton attribution report\n${result.problems.map((p) => `- ${p}\n`).join('')}`);
  process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`verify-export failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
