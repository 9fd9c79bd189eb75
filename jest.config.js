/**
 * Jest runs unit specs beside the code and e2e suites under test/. `npm test` runs the
 * command-line suite alone first (`test:start`), then the rest with BATON_SKIP_START_SUITE=1.
 */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/{src,libs,test}/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...(process.env.BATON_SKIP_START_SUITE ? ['/test/start\\.e2e-spec\\.ts$'] : [])],
  testTimeout: 60000,
  maxWorkers: 2,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testSequencer: '<rootDir>/test/support/sequencer.js',
  reporters: ['default', '<rootDir>/test/support/suite-times-reporter.js'],
};
