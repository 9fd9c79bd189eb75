/** The deepest nesting of arrays and objects a request body may have. */
export const MAX_JSON_DEPTH = 64;

export const JSON_TOO_DEEP = `request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether the raw JSON text in `bytes` nests arrays and objects deeper than
 * `max`. One pass over the bytes, before parsing: brackets inside strings do
 * not count, and malformed text is left for the parser to refuse. Deep bodies
 * are refused here because every later walk over the parsed value (validation,
 * conversion, the MCP SDK) recurses and would overflow the stack.
 */
export function nestsDeeperThan(bytes: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACKET || b === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}
