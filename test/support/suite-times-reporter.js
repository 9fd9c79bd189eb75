'use strict';
/**
 * A jest reporter that records how long each suite took, so that drift in the suite's running
 * time is visible. With BATON_SUITE_TIMES_FILE set, each finished suite appends one line
 * "<seconds>\t<path>\t<passed|failed>" to that file (.ci/run prints them sorted at the end).
 */
const fs = require('node:fs');
const path = require('node:path');

class SuiteTimesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.file = process.env.BATON_SUITE_TIMES_FILE;
  }

  onTestResult(test, result) {
    if (!this.file) return;
    const seconds = ((result.perfStats.end - result.perfStats.start) / 1000).toFixed(1);
    const status = result.numFailingTests > 0 || result.testExecError ? 'failed' : 'passed';
    fs.appendFileSync(this.file, `${seconds}\t${path.relative(this.rootDir, test.path)}\t${status}\n`);
  }
}

module.exports = SuiteTimesReporter;
