import { DOMAIN_TOOLSETS } from './toolsets';

/** A project's tool_priority_map: a tool name, or a pattern ending in `*`, to a priority from 0 to 100 (higher first). */
export type ToolPriorityMap = Record<string, number>;

/** The priority `map` gives the tool `name`: its own entry, else the highest of the patterns that match it, else null. */
export function priorityOf(map: ToolPriorityMap, name: string): number | null {
  if (typeof map[name] === 'number') return map[name];
  let best: number | null = null;
  for (const [pattern, priority] of Object.entries(map)) {
    if (pattern.endsWith('*') && name.startsWith(pattern.slice(0, -1)) && (best === null || priority > best)) best = priority;
  }
  return best;
}

/**
 * A listing in the order a project's tool_priority_map asks: tools by their
 * priority (higher first; tools the map names before those it does not), then
 * by their toolset's (the highest priority of any tool of the toolset, so a
 * toolset the project cares about comes first as a whole), then by name.
 */
export function orderByPriority<T extends { name: string }>(tools: readonly T[], map: ToolPriorityMap): T[] {
  const toolsetOf = new Map<string, string>();
  for (const toolset of DOMAIN_TOOLSETS) for (const tool of toolset.tools ?? []) toolsetOf.set(tool, toolset.name);
  const own = new Map(tools.map((t) => [t.name, priorityOf(map, t.name) ?? -1]));
  const toolsetRank = new Map<string, number>();
  for (const toolset of DOMAIN_TOOLSETS) {
    const ranks = (toolset.tools ?? []).map((t) => priorityOf(map, t) ?? -1);
    toolsetRank.set(toolset.name, Math.max(-1, ...ranks));
  }
  const rankOfToolset = (name: string) => toolsetRank.get(toolsetOf.get(name) ?? '') ?? -1;
  return [...tools].sort((a, b) => (own.get(b.name) ?? -1) - (own.get(a.name) ?? -1) || rankOfToolset(b.name) - rankOfToolset(a.name) || a.name.localeCompare(b.name));
}
