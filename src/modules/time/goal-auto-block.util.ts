/** What the auto-summary cycle knows of a project when it refreshes an `auto` goal's status block. */
export interface ProjectStatusFacts {
  done: number;
  in_progress: string[];
  blocked: { title: string; blocker_kind: string }[];
  open_hitl: number;
  last_tasks: string[];
}

/** The AUTO BLOCK an `auto` goal carries, named `status`. */
export const STATUS_BLOCK = 'status';
/** Titles listed per kind (the counts say how many there are). */
const LISTED = 10;

/**
 * The goal's status block, written from the project's state alone (no model,
 * no clock): the same state gives the same text, so a quiet project's goal is
 * not rewritten every cycle.
 */
export function statusBlock(f: ProjectStatusFacts): string {
  const lines = [
    `<!-- AUTO BLOCK: ${STATUS_BLOCK} -->`,
    `Status: ${f.done} items done, ${f.in_progress.length} in progress, ${f.blocked.length} blocked, ${f.open_hitl} open HITL requests.`,
    ...(f.in_progress.length ? ['In progress:', ...f.in_progress.slice(0, LISTED).map((t) => `- ${t}`)] : []),
    ...(f.blocked.length ? ['Blocked:', ...f.blocked.slice(0, LISTED).map((b) => `- ${b.title} (${b.blocker_kind})`)] : []),
    ...(f.last_tasks.length ? ['Last tasks:', ...f.last_tasks.map((t) => `- ${t}`)] : []),
    '<!-- END AUTO BLOCK -->',
  ];
  return lines.join('\n');
}
