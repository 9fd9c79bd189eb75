import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { dashboardDir } from '../../src/modules/dashboard/dashboard-static';
import { describePostgres, describeUnless, postgresUp } from './suites';

/** The Chromium the browser suites drive: BATON_CHROMIUM, else Debian's package (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM_PATH = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';

/**
 * describe() for the browser suites: skipped with the reason printed when Chromium is not installed,
 * but run (and failing at launch) when CI=true, where a missing browser is a broken set-up, not a reason to skip.
 */
export const describeBrowser = describeUnless(
  existsSync(CHROMIUM_PATH) || process.env.CI === 'true' ? undefined : `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium package or set BATON_CHROMIUM)`,
);

/** Needs both: skipped (with the reason printed) when Postgres is down or Chromium missing, as each alone would be. */
export const describeHostedBrowser = postgresUp ? describeBrowser : describePostgres;

/** Fails the suite at once, saying what to do, when the dashboard has not been built (the browser suites load the built app). */
export function requireBuiltDashboard(): void {
  const built = dashboardDir({} as never);
  if (!existsSync(join(built, 'index.html'))) throw new Error(`the dashboard is not built at ${built}: run \`npm run build\` (npm install runs it) before this suite`);
}

/** Opens a dashboard view and waits for its heading, and (`live`) for the live channel to be up. */
export async function openView(page: Page, url: string, heading: RegExp, { live = false } = {}): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 5000 });
  if (live) await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
}

/**
 * What every view must be, checked as the page is now: no serious or critical axe-core violation
 * in each of `themes`, nothing wider than `maxWidth` (when given), and a screenshot of each theme
 * in the suite's folder. The page is left in the light theme.
 */
export async function expectUsable(
  page: Page,
  suite: string,
  name: string,
  { themes = ['light', 'dark'], maxWidth }: { themes?: ('light' | 'dark')[]; maxWidth?: number } = {},
): Promise<void> {
  for (const colorScheme of themes) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousA11yViolations(page)).toEqual([]);
    if (maxWidth !== undefined)
      expect(
        await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(maxWidth);
    await page.screenshot({ path: join(screenshotFolder(suite), themes.length > 1 ? `${name}-${colorScheme}.png` : `${name}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
}

/** Everything a page wrote to its console as an error, and its uncaught exceptions: a suite expects none. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules and best practices). */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated, not added as a <script>: the dashboard's Content-Security-Policy refuses inline scripts, as it should.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const { violations } = await axe.run();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

let screenshotDir: string | undefined;

/** A folder under the OS temp dir for this run's screenshots, its path printed once. */
export function screenshotFolder(suite: string): string {
  if (!screenshotDir) {
    screenshotDir = join(tmpdir(), `baton-screenshots-${suite}-${process.pid}`);
    mkdirSync(screenshotDir, { recursive: true });
    // eslint-disable-next-line no-console -- where the screenshots are is for whoever runs the suite
    console.log(`screenshots of ${suite}: ${screenshotDir}`);
  }
  return screenshotDir;
}
