import { Parser } from '../config.parsers';

export interface VariableSpec<T> {
  /** The variable read first. */
  name: string;
  /** Older or alternative names, read when `name` is unset. */
  aliases?: string[];
  description: string;
  /** Sensitive values are never logged, reported by GET /config, or echoed in errors. */
  sensitive: boolean;
  parse: Parser<T>;
  default?: T;
}

/** Declares one variable; the type parameter is the parsed value's. */
export function variable<T>(spec: VariableSpec<T>): VariableSpec<T> {
  return spec;
}

export const DEV_SESSION_SECRET = 'baton-development-session-secret-do-not-use-in-production';
