import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './support/processes';

/**
 * scripts/build-if-stale.js, which `npm start` and `npm install` run first, in a project of its
 * own: a copy of the script beside a `build:steps` that writes the build's outputs and counts its
 * runs (and fails while a file named FAIL exists).
 */
describe('npm start builds only when the sources changed (scripts/build-if-stale.js)', () => {
  let root: string;

  const STEPS = `
const fs = require('node:fs');
fs.appendFileSync('builds.log', 'built\\n');
if (fs.existsSync('FAIL')) process.exit(2);
for (const file of ['dist/src/main.js', 'dist/openapi.json', 'apps/dashboard/dist/index.html']) {
  fs.mkdirSync(require('node:path').dirname(file), { recursive: true });
  fs.writeFileSync(file, 'built');
}
`;

  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  const builds = () => (existsSync(join(root, 'builds.log')) ? readFileSync(join(root, 'builds.log'), 'utf8').split('\n').filter(Boolean).length : 0);
  const run = (args: string[] = [], extraEnv: Record<string, string> = {}) => {
    const env: Record<string, string | undefined> = { ...process.env, ...extraEnv };
    if (!extraEnv.BATON_BUILD_STEPS_RUNNING) delete env.BATON_BUILD_STEPS_RUNNING;
    const result = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.js'), ...args], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'baton-build-if-stale-'));
    mkdirSync(join(root, 'scripts'));
    copyFileSync(join(REPO_ROOT, 'scripts', 'build-if-stale.js'), join(root, 'scripts', 'build-if-stale.js'));
    write('package.json', JSON.stringify({ name: 'stale-check', private: true, scripts: { 'build:steps': 'node steps.js' } }));
    write('steps.js', STEPS);
    write('src/main.ts', 'export const answer = 42;\n');
    write('apps/dashboard/src/app.tsx', 'export {};\n');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('builds the first time, then starts without building while nothing it reads changed', () => {
    expect(run().status).toBe(0);
    expect(builds()).toBe(1);
    const again = run();
    expect(again.status).toBe(0);
    expect(again.output).toMatch(/up to date/);
    expect(builds()).toBe(1);

    // A newer file time alone (a checkout, a copy) is not a change.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src/main.ts'), later, later);
    run();
    expect(builds()).toBe(1);
  });

  test('a changed, added or removed source builds again; a file the build writes itself does not', () => {
    run();
    write('src/main.ts', 'export const answer = 43;\n');
    run();
    expect(builds()).toBe(2);
    write('apps/dashboard/src/extra.ts', 'export {};\n');
    run();
    expect(builds()).toBe(3);
    rmSync(join(root, 'apps/dashboard/src/extra.ts'));
    run();
    expect(builds()).toBe(4);
    write('package.json', JSON.stringify({ name: 'stale-check', private: true, version: '2.0.0', scripts: { 'build:steps': 'node steps.js' } }));
    run();
    expect(builds()).toBe(5);

    // Generated from src/ by the build (the dashboard's API types): an output, not an input.
    write('apps/dashboard/src/api/openapi-types.gen.ts', 'export type Generated = 1;\n');
    run();
    expect(builds()).toBe(5);
  });

  test('a missing output builds again, and --always (npm run build) builds whatever the sources say', () => {
    run();
    rmSync(join(root, 'apps/dashboard/dist/index.html'));
    run();
    expect(builds()).toBe(2);
    expect(run(['--always']).status).toBe(0);
    expect(builds()).toBe(3);
    // ...and records what it built, so the next start does not build again.
    run();
    expect(builds()).toBe(3);
  });

  test('a failed build fails the command and is tried again next time, even with the sources unchanged', () => {
    run();
    write('src/main.ts', 'export const answer = 44;\n');
    write('FAIL', '');
    expect(run().status).not.toBe(0);
    expect(builds()).toBe(2);
    rmSync(join(root, 'FAIL'));
    expect(run().status).toBe(0);
    expect(builds()).toBe(3);
    run();
    expect(builds()).toBe(3);
  });

  test('build steps that run the script again stop at once instead of building forever', () => {
    const nested = run([], { BATON_BUILD_STEPS_RUNNING: '1' });
    expect(nested.status).toBe(1);
    expect(nested.output).toMatch(/"build:steps" must not call "build"/);
    expect(builds()).toBe(0);
  });
});
