/**
 * What `tools/list` shows of a tool's schemas. Every listing goes into an assistant's context, so
 * the listed input schema keeps what a client needs to build a call (types, required fields,
 * enums, formats, bounds of numbers and short texts, refusing unknown fields) and leaves out what
 * only the server needs: the server validates every argument against the full rules and names the
 * field it refuses, and the rule, whatever the listing says.
 */

/** A uuid written as a pattern: said as `format: uuid`, which clients know. */
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** Caps of paths and free text (notes, bodies, summaries): an assistant never comes near them, and a longer text is refused by name. */
const LONG_TEXT = 1_000;

/**
 * The listed form of one schema node, and of every node under it:
 * - patterns are left out (most only refuse control characters; the others, slugs, tokens, id-or-slug
 *   alternations, are said in words by the tool's description or the refusal), a uuid pattern
 *   becomes `format: uuid`;
 * - `minLength: 1` is left out (an empty text is refused by name) and so is a cap of long text.
 */
export function listedSchema<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item: unknown) => listedSchema(item)) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'pattern') {
      if (value === UUID_PATTERN) out.format = 'uuid';
      continue;
    }
    if (key === 'minLength' && value === 1) continue;
    if (key === 'maxLength' && typeof value === 'number' && value >= LONG_TEXT) continue;
    out[key] = listedSchema(value);
  }
  return out as T;
}

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/**
 * A tool's outputSchema: the top-level result object and its main properties with their types.
 * It names no required property and leaves additional ones open, so a field added later is no
 * break, and an error result's `{detail, code}` body, which clients check against the same schema,
 * passes too (see docs/decisions.md).
 */
export interface OutputSchema {
  type: 'object';
  properties: Record<string, { type: JsonType | JsonType[] }>;
}

/** `output({ ok: 'boolean', item: ['object', 'null'] })`: an OutputSchema in one line. */
export function output(properties: Record<string, JsonType | JsonType[]>): OutputSchema {
  return { type: 'object', properties: Object.fromEntries(Object.entries(properties).map(([name, type]) => [name, { type }])) };
}
