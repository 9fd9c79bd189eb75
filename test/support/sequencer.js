'use strict';
/**
 * Jest's own order (failed first, then slowest by its cache of earlier runs, else biggest file)
 * with the suites known to run longest put first. On a fresh checkout there is no cache, and a
 * long suite in a small file would start last and run alone on one worker while the other sits
 * idle for minutes. (The 1,000-tenant scale suite runs in a jest run of its own: `test:scale`.)
 */
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const LONGEST_FIRST = ['test/sprint-claims.e2e-spec.ts', 'test/sqlite-gc-soak.e2e-spec.ts'];

function rank(test) {
  const file = test.path.split(path.sep).join('/');
  const index = LONGEST_FIRST.findIndex((suffix) => file.endsWith(`/${suffix}`));
  return index === -1 ? LONGEST_FIRST.length : index;
}

class LongestFirstSequencer extends Sequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    // Array.prototype.sort is stable: Jest's order holds within each rank.
    return [...ordered].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = LongestFirstSequencer;
