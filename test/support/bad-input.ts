import { randomUUID } from 'node:crypto';
import { HttpResult } from './http';

/** Values of the wrong type or shape for any field (null means "not given" for an optional field, as everywhere in Baton). */
export const WRONG_TYPES: unknown[] = [true, 0, -1, 3.5, [], ['a'], {}, { nested: 1 }];

/** For a required field, null is wrong too. */
export const WRONG_REQUIRED: unknown[] = [null, ...WRONG_TYPES];

/** Ids that are no UUID, for a path segment or an argument: never a project, session or item of anyone. */
export const BAD_IDS = ['x', 'not-a-uuid', '123', `${randomUUID()}0`, randomUUID().replace(/-/g, ''), "' OR 1=1 --", '..%2f..%2fetc', '%00', 'ü😀'];

/**
 * The answers to bad input that were not a proper refusal, gathered while a
 * test sends a table of bad inputs, so that one `expect(refusals.failures)
 * .toEqual([])` at the end names every one of them at once.
 */
export class Refusals {
  readonly failures: string[] = [];

  /** A route must answer a 4xx whose body explains itself (a non-empty `detail`). */
  http(res: HttpResult, label: string): void {
    if (res.status >= 400 && res.status < 500 && typeof res.body?.detail === 'string' && res.body.detail !== '') return;
    this.failures.push(`${label} -> ${res.status} ${res.text.slice(0, 160)}`);
  }

  /** A tool must answer an isError result that carries a `detail`. */
  tool(result: { isError: boolean; text: string; structured?: Record<string, unknown> }, label: string): void {
    if (result.isError && typeof result.structured?.detail === 'string') return;
    this.failures.push(`${label} -> ${result.text.slice(0, 120)}`);
  }
}

/**
 * Sends each bad input of a table and expects its refusal: the status (400
 * when the row leaves it out) and a `detail` that matches the pattern.
 */
export async function expectRefused<T>(send: (input: T) => Promise<HttpResult>, cases: ([T, RegExp] | [T, number, RegExp])[]): Promise<void> {
  for (const row of cases) {
    const [input, status, detail] = row.length === 2 ? [row[0], 400, row[1]] : row;
    const res = await send(input);
    expect([res.status, res.body.detail]).toEqual([status, expect.stringMatching(detail)]);
  }
}

/**
 * Words that belong to a bound, length, pattern or control-character rule: a
 * refusal of a value of the wrong type, or of a field left out, never holds
 * them, since they would send the caller after the wrong mistake.
 */
export const NOT_A_TYPE_MESSAGE = /greater than|less than|at least|at most|shorter|longer|characters|must match|control|blank|empty/;

/**
 * For the refusal of a wrong type or a left-out field: the part of `detail`
 * about `field` when it speaks of a bound, length or pattern instead, else
 * undefined.
 */
export function misleadingRefusal(detail: string, field: string): string | undefined {
  const own = detail.split('; ').find((part) => part.startsWith(`${field} `));
  return own !== undefined && NOT_A_TYPE_MESSAGE.test(own) ? own : undefined;
}

/**
 * A table row: the input, then the exact detail a wrong type or a missing field
 * must get (`wait must be a number`, `title is required`).
 */
export type MessageCase<T> = [label: string, input: T, detail: string];

/**
 * Sends each row and gathers, for one `expect(...).toEqual([])`, every answer
 * that was not a 400 with exactly that detail, or that spoke of a bound,
 * length or pattern instead of the type.
 */
export async function wrongMessages<T>(send: (input: T) => Promise<{ status: number; detail: unknown }>, cases: MessageCase<T>[]): Promise<string[]> {
  const wrong: string[] = [];
  for (const [label, input, detail] of cases) {
    const answer = await send(input);
    if (answer.status !== 400 || answer.detail !== detail || NOT_A_TYPE_MESSAGE.test(String(answer.detail))) {
      wrong.push(`${label}: ${answer.status} ${JSON.stringify(answer.detail)} (wanted ${JSON.stringify(detail)})`);
    }
  }
  return wrong;
}
