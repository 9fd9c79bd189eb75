import { escapeLiteral } from 'pg';

// pg's own conversion of a JavaScript value to the text Postgres receives for
// a parameter (dates, arrays, JSON, buffers): inlined values read exactly as
// bound ones would.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- pg/lib/utils has no type declarations to import: the cast types the one function used
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => string | Buffer | null };

/** An error shaped like Postgres's own, so it maps to the same client answer. */
class InlineValueError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** One parameter as a SQL literal (`NULL`, or a quoted string Postgres coerces like an untyped parameter). */
export function sqlLiteral(value: unknown): string {
  const text = prepareValue(value);
  if (text === null || text === undefined) return 'NULL';
  if (Buffer.isBuffer(text)) return escapeLiteral(`\\x${text.toString('hex')}`);
  if (text.includes('\u0000')) throw new InlineValueError('invalid byte sequence for encoding "UTF8": 0x00', '22021');
  return escapeLiteral(text);
}

const IDENT_CHAR = /[A-Za-z0-9_$]/;
const DOLLAR_TAG = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

/**
 * Writes the parameters of a statement (`$1`, `$2`, ...) into its text as
 * literals, so that it can travel in one simple-protocol message together with
 * the statements that scope it. Placeholders inside string literals, quoted
 * identifiers, dollar-quoted bodies and comments are left alone.
 */
export function inlineParams(sql: string, params: readonly unknown[] | undefined): string {
  if (!params || params.length === 0) return sql;
  let out = '';
  let copied = 0;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === "'") {
      const backslashes = (sql[i - 1] === 'E' || sql[i - 1] === 'e') && !IDENT_CHAR.test(sql[i - 2] ?? ' ');
      i = skipQuoted(sql, i, "'", backslashes);
    } else if (c === '"') {
      i = skipQuoted(sql, i, '"', false);
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      i = skipBlockComment(sql, i);
    } else if (c === '$' && !IDENT_CHAR.test(sql[i - 1] ?? ' ')) {
      const digits = /^\$(\d+)/.exec(sql.slice(i, i + 12));
      if (digits) {
        const index = Number(digits[1]);
        if (index < 1 || index > params.length) throw new Error(`statement refers to $${index} but ${params.length} parameter(s) were given`);
        out += sql.slice(copied, i) + sqlLiteral(params[index - 1]);
        i += digits[0].length;
        copied = i;
        continue;
      }
      const tag = DOLLAR_TAG.exec(sql.slice(i, i + 64));
      if (tag) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        i = end < 0 ? n : end + tag[0].length;
      } else {
        i++;
      }
    } else {
      i++;
    }
  }
  return out + sql.slice(copied);
}

function skipQuoted(sql: string, start: number, quote: string, backslashes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslashes && c === '\\') {
      i += 2;
    } else if (c === quote) {
      if (sql[i + 1] !== quote) return i + 1;
      i += 2;
    } else {
      i++;
    }
  }
  return sql.length;
}

/** Postgres block comments nest. */
function skipBlockComment(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  return sql.length;
}
