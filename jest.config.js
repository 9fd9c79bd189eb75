/**
 * Two levels, as two Jest projects:
 * - unit: the specs beside the code (src/, libs/). No database, no Redis, no server: they need no
 *   global set-up and run in seconds (`npm run test:unit`).
 * - suites: everything under test/ (e2e suites and the library contract specs), against real
 *   SQLite, Postgres and Redis; global-setup probes those once (`npm run test:suites`).
 * `npm test` runs unit, then the command-line suite alone (`test:start`), then the other suites
 * with BATON_SKIP_ALONE_SUITES=1, then the scale suite alone (`test:scale`), so no spec runs twice.
 *
 * BATON_TEST_LEVEL=unit or =suites keeps one project; unset, both run, each with its own set-up.
 * An environment variable and not --selectProjects: that option takes every word after it, so
 * `npm run test:suites -- test/projects.e2e-spec.ts` would read the path as a project name.
 */

/**
 * Suites that run alone, each in its own jest run (`test:start`, `test:scale`), and are left out of
 * `test:suites`: the command-line suite's clock must measure Baton, and the 1,000-tenant suite's
 * provisioning (a schema, a role and every migration per tenant) saturates Postgres for minutes,
 * which turns the timing-sensitive suites beside it into 503s; so does `npm run migrate` over
 * 1,000 tenants (test/migrate-scale.e2e-spec.ts), which `test:scale` runs after it.
 */
const ALONE_SUITES = ['/test/start\\.e2e-spec\\.ts$', '/test/scale\\.e2e-spec\\.ts$', '/test/migrate-scale\\.e2e-spec\\.ts$'];

/** Specs beside the code that talk to a real Redis: they run with the suites, where global-setup probes it. */
const NEEDS_SERVICES = ['libs/pubsub/redis-push.spec.ts', 'libs/pubsub/budget.spec.ts'];

const typescript = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleFileExtensions: ['ts', 'js', 'json'],
};

const PROJECTS = [
  {
    ...typescript,
    displayName: 'unit',
    testMatch: ['<rootDir>/{src,libs}/**/*.spec.ts'],
    testPathIgnorePatterns: ['/node_modules/', ...NEEDS_SERVICES.map((file) => `<rootDir>/${file.replace(/\./g, '\\.')}$`)],
  },
  {
    ...typescript,
    displayName: 'suites',
    testMatch: ['<rootDir>/test/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts', ...NEEDS_SERVICES.map((file) => `<rootDir>/${file}`)],
    testPathIgnorePatterns: ['/node_modules/', ...(process.env.BATON_SKIP_ALONE_SUITES ? ALONE_SUITES : [])],
    globalSetup: '<rootDir>/test/support/global-setup.ts',
  },
];

const level = process.env.BATON_TEST_LEVEL;
if (level && !PROJECTS.some((project) => project.displayName === level)) throw new Error(`BATON_TEST_LEVEL is unit or suites, not "${level}"`);

module.exports = {
  rootDir: '.',
  testTimeout: 60000,
  maxWorkers: 2,
  // A worker runs suite after suite, each starting apps in-process; what a suite leaves behind adds up
  // (a worker once reached its 4 GB heap, and its last suites ran in long GC pauses that read as database
  // timeouts). A worker above this between two suites is replaced by a fresh one.
  workerIdleMemoryLimit: '1200MB',
  testSequencer: '<rootDir>/test/support/sequencer.js',
  reporters: ['default', '<rootDir>/test/support/suite-times-reporter.js'],
  projects: PROJECTS.filter((project) => !level || project.displayName === level),
};
