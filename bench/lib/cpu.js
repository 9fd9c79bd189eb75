'use strict';
/** CPU time of processes, from /proc (Linux). */
const fs = require('node:fs');

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** CPU seconds a process has used so far (user + system), or 0 when it is gone or /proc is missing. */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

module.exports = { cpuSeconds };
