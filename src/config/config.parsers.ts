/**
 * Parsers turn one raw environment string into a typed value, or throw a message
 * that says what was expected. The variable name is added by the caller.
 */
export type Parser<T> = (raw: string) => T;

export const text: Parser<string> = (raw) => raw;

export function integer(min: number, max: number): Parser<number> {
  return (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new Error(`must be an integer, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new Error(`must be between ${min} and ${max}, got ${value}`);
    return value;
  };
}

export const boolean: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new Error(`must be true or false, got "${raw}"`);
};

export function oneOf<T extends string>(...choices: T[]): Parser<T> {
  return (raw) => {
    if (!(choices as string[]).includes(raw)) throw new Error(`must be one of ${choices.join(', ')}, got "${raw}"`);
    return raw as T;
  };
}

export function httpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must be an http(s) URL');
  return raw.replace(/\/+$/, '');
}

/** A connection URL whose value is sensitive: errors never repeat it. */
export function connectionUrl(...protocols: string[]): Parser<string> {
  return (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Error(`must be a ${protocols.join(' or ')} URL`);
    }
    if (!protocols.includes(url.protocol.replace(/:$/, ''))) throw new Error(`must be a ${protocols.join(' or ')} URL`);
    return raw;
  };
}

/** A comma-separated list of connection URLs; errors name the position, never the value. */
export function connectionUrlList(...protocols: string[]): Parser<string[]> {
  const one = connectionUrl(...protocols);
  return (raw) =>
    list(raw).map((url, i) => {
      try {
        return one(url);
      } catch (error) {
        throw new Error(`entry ${i + 1} ${(error as Error).message}`, { cause: error });
      }
    });
}

export function list(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
