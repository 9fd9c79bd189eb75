/** What GET .../search finds, as each result's `kind` says it. */
export const SEARCH_KINDS = ['goal', 'sprint_item', 'task', 'note', 'decision', 'pinned_decision', 'document'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 100;
export const SEARCH_QUERY_MAX = 500;
/** Characters of context in a result's snippet. */
export const SNIPPET_CHARS = 160;
