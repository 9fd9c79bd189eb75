import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eachBackend, RunningBackend } from './support/backends';
import { REPO_ROOT } from './support/processes';

const run = promisify(execFile);

/** The official MCP conformance suite's command line (a devDependency; it needs Node 24's fs.globSync, the Node running jest). */
const CLI = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/**
 * The suite's server scenarios that apply to Baton, and what is expected of each: the one place to
 * change when a feature lands. Left out: the scenarios that call the suite's own fixture tools,
 * prompts and resources (`test_simple_text`, `test_prompt_with_arguments`, `test://static-text`,
 * ...), which a server has only to pass that scenario, and which say nothing about Baton
 * (completion-complete among them: it completes an argument of `test_prompt_with_arguments`, and
 * Baton answers -32602 for a prompt it does not have, as the specification asks).

 */
const SCENARIOS: Readonly<Record<string, 'passes' | 'pending'>> = {
  'server-initialize': 'passes',
  ping: 'passes',
  'tools-list': 'passes',
  'server-sse-multiple-streams': 'passes',
  'dns-rebinding-protection': 'passes',
  'prompts-list': 'passes',
  'logging-set-level': 'passes',
  'resources-list': 'passes',
};

const expected = (state: 'passes' | 'pending') => Object.keys(SCENARIOS).filter((name) => SCENARIOS[name] === state);

/** Runs one scenario of the suite against `url`; its exit code says whether every check passed. */
async function scenario(url: string, name: string): Promise<{ passed: boolean; output: string }> {
  const outDir = mkdtempSync(join(tmpdir(), 'baton-conformance-'));
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'server', '--url', url, '--scenario', name, '-o', outDir], { timeout: 60_000 });
    return { passed: true, output: stdout + stderr };
  } catch (error) {
    const { stdout = '', stderr = '', code } = error as { stdout?: string; stderr?: string; code?: unknown };
    if (typeof code !== 'number') throw error;
    return { passed: false, output: stdout + stderr };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

// The suite's client sends no credentials: the self-hosted set-ups, where /mcp needs none.
describe.each(eachBackend().filter(([name]) => !name.endsWith('(hosted)')))('MCP conformance suite against Baton on %s', (_name, backend) => {
  let baton: RunningBackend;

  beforeAll(async () => {
    baton = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await baton?.stop();
  });

  test('every scenario named here is one the suite has', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'list', '--server'], { timeout: 60_000 });
    const listed = [...stdout.matchAll(/^\s*- (\S+)/gm)].map((m) => m[1]);
    expect(listed).toEqual(expect.arrayContaining(Object.keys(SCENARIOS)));
  });

  test.each(expected('passes'))('%s passes', async (name) => {
    const { passed, output } = await scenario(`${baton.testApp.url}/mcp`, name);
    if (!passed) throw new Error(`conformance scenario ${name} failed:\n${output}`);
    // The suite's own tally: every check it made passed (server-sse-multiple-streams makes none against a stateless server, and warns).
    const [, ok, total, failed] = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output) ?? [];
    expect({ ok, failed }).toEqual({ ok: total, failed: '0' });
  });
});
