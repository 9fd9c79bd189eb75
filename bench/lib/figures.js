'use strict';
/** How the benchmarks print and reduce their figures. */

/** `s` left-aligned in `n` columns. */
const pad = (s, n) => String(s).padEnd(n);

/** a / b to three decimals; 0 when b is not positive. */
const ratio = (a, b) => (b > 0 ? Math.round((a / b) * 1000) / 1000 : 0);

/** How a target is printed. */
const verdict = (ok) => (ok ? 'met' : 'MISSED');

/** The middle value of `xs` (the mean of the two middle ones for an even count). */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * One line of the table every benchmark ends with (and `npm run bench -- all` gathers): a figure,
 * the ceiling it is judged against, their ratio and whether the goal is met. `goal` 'below' means
 * the figure must stay under the ceiling (a time, a cost), 'above' that it must reach it (a ratio of
 * throughputs, where the ceiling is then the required ratio or the reference). `comparable` false
 * says the run had errors under load: the figure is printed but means nothing.
 */
function figureRow({ figure, value, unit = '', ceiling, goal = 'below', comparable = true, note }) {
  const r = ratio(value, ceiling);
  const met = comparable && Number.isFinite(value) && (goal === 'below' ? value < ceiling : value >= ceiling);
  return {
    figure,
    value,
    unit,
    ceiling,
    ratio: r,
    goal: goal === 'below' ? `< ${ceiling} ${unit}`.trim() : `>= ${ceiling} ${unit}`.trim(),
    met,
    comparable,
    ...(note ? { note } : {}),
  };
}

/** Prints figure rows as one aligned table. */
function printFigures(rows) {
  const cells = rows.map((r) => [
    r.bench ? `${r.bench}: ${r.figure}` : r.figure,
    r.value === null || r.value === undefined ? '-' : `${r.value} ${r.unit ?? ''}`.trim(),
    r.ceiling === null || r.ceiling === undefined ? '-' : `${r.ceiling} ${r.unit ?? ''}`.trim(),
    r.ratio === null || r.ratio === undefined ? '-' : String(r.ratio),
    r.goal ?? '-',
    r.comparable === false ? 'NOT COMPARABLE' : verdict(r.met),
  ]);
  const head = ['figure', 'value', 'ceiling', 'ratio', 'goal', 'result'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) =>
    c
      .map((v, i) => pad(v, widths[i]))
      .join('  ')
      .trimEnd();
  console.log(line(head));
  for (const c of cells) console.log(line(c));
}

module.exports = { pad, ratio, verdict, median, figureRow, printFigures };
