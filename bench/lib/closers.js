'use strict';
/** Runs every cleanup step a benchmark registered, the last first; one that fails is reported and the rest still run. */
async function closeAll(closers) {
  while (closers.length) {
    try {
      await closers.pop()();
    } catch (error) {
      process.stderr.write(`cleanup: ${error.message}\n`);
    }
  }
}

module.exports = { closeAll };
