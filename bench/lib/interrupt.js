'use strict';
/**
 * Ctrl-C in a benchmark: the first one lets the current step finish, then the benchmark cleans up
 * (databases, clusters, temporary folders) and stops. The same signal may arrive twice (from the
 * terminal and from a parent bench/run.js forwarding it); a repeat more than 2 s later exits at once.
 * Answers `check`, which throws once an interrupt was asked for: call it between steps.
 */
function stopOnInterrupt() {
  let interrupted = 0;
  const onSignal = () => {
    if (interrupted && Date.now() - interrupted > 2000) process.exit(130);
    if (!interrupted) process.stderr.write('interrupted: stopping after the current step and cleaning up\n');
    interrupted ||= Date.now();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    if (interrupted) throw new Error('interrupted');
  };
}

module.exports = { stopOnInterrupt };
