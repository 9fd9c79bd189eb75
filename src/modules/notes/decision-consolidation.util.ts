export interface ConsolidationGroup {
  /** The entry that stays. */
  keep_id: string;
  /** Entries saying the same as keep_id: they get superseded_by_id = keep_id. */
  duplicate_ids: string[];
}

/** Why a model's consolidation was refused, or the groups it proposes. */
export type ParsedConsolidation = { ok: true; groups: ConsolidationGroup[] } | { ok: false; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a model's answer `{"groups": [{"keep_id", "duplicate_ids": [...]}]}`
 * against the entries it was shown. Refused whole (nothing applied) when it is
 * not that JSON, names an entry it was not shown, names one entry twice, keeps
 * an entry it also drops, or has a group without duplicates.
 */
export function parseConsolidation(answer: string, shown: ReadonlySet<string>): ParsedConsolidation {
  let json: unknown;
  try {
    json = JSON.parse(answer);
  } catch {
    return { ok: false, reason: 'the answer is not JSON' };
  }
  if (!isObject(json) || !Array.isArray(json.groups)) return { ok: false, reason: 'the answer has no groups array' };
  const used = new Set<string>();
  const groups: ConsolidationGroup[] = [];
  for (const [i, group] of json.groups.entries()) {
    if (!isObject(group) || typeof group.keep_id !== 'string' || !Array.isArray(group.duplicate_ids)) return { ok: false, reason: `group ${i} is not {keep_id, duplicate_ids}` };
    const ids = [group.keep_id, ...(group.duplicate_ids as unknown[])];
    if (group.duplicate_ids.length === 0) return { ok: false, reason: `group ${i} has no duplicates` };
    for (const id of ids) {
      if (typeof id !== 'string' || !shown.has(id)) return { ok: false, reason: `group ${i} names an entry that is not in the log: ${JSON.stringify(id)}` };
      if (used.has(id)) return { ok: false, reason: `entry ${id} is named twice` };
      used.add(id);
    }
    groups.push({ keep_id: group.keep_id, duplicate_ids: group.duplicate_ids as string[] });
  }
  return { ok: true, groups };
}

/** What the model is told: the task, and the entries as JSON lines (ids, titles, bodies cut to 2,000 characters). */
export function consolidationPrompt(entries: { id: string; title: string; body: string; created_at: Date }[]): { system: string; user: string } {
  const system = [
    'You de-duplicate the decision log of a software project.',
    'Group entries that record the same decision (restated, repeated or refined). Leave distinct decisions alone.',
    'In each group keep the most complete (or the latest) entry; the others are its duplicates.',
    'Answer only with JSON: {"groups": [{"keep_id": "<id>", "duplicate_ids": ["<id>", ...]}]}; {"groups": []} when there are no duplicates.',
    'Use only ids from the log; name each id at most once.',
  ].join('\n');
  const user = entries.map((e) => JSON.stringify({ id: e.id, title: e.title, body: e.body.slice(0, 2000), created_at: e.created_at.toISOString() })).join('\n');
  return { system, user };
}
