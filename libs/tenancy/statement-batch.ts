import { QueryRunner } from 'typeorm';

/** Statements whose rows the caller may read (a `RETURNING` clause too): they go out at once, after everything queued before them. */
const READS = /^\s*(SELECT|WITH|SHOW|VALUES|TABLE|EXPLAIN)\b|\bRETURNING\b/i;

/**
 * Postgres statements sent together: `runner` is a QueryRunner whose `query` queues a statement
 * that has no values and returns no rows the caller reads (DDL, INSERT ... SELECT), answering `[]`
 * at once; a read, or a statement with values, first sends what is queued as one simple-protocol
 * query (Postgres runs the statements in order and stops at the first error), then runs as usual.
 * `flush` sends what is left; the caller does so before committing. Order is kept throughout, so
 * a migration written for one statement per round trip runs the same way in far fewer of them,
 * which is most of the time a new tenant's schema takes on a busy machine. Every other member of
 * the runner is the real one.
 */
export class StatementBatch {
  readonly runner: QueryRunner;
  private queued: string[] = [];

  constructor(private readonly target: QueryRunner) {
    const query = async (sql: string, parameters?: unknown[]): Promise<unknown> => {
      if ((parameters === undefined || parameters.length === 0) && !READS.test(sql)) {
        this.queued.push(sql);
        return [];
      }
      await this.flush();
      return target.query(sql, parameters);
    };
    this.runner = new Proxy(target, {
      get(real, property) {
        if (property === 'query') return query;
        const value: unknown = Reflect.get(real, property, real);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
      },
    });
  }

  /** Sends the queued statements, if any, as one query. */
  async flush(): Promise<void> {
    if (this.queued.length === 0) return;
    const statements = this.queued;
    this.queued = [];
    // A newline before each separator: a statement ending in a line comment keeps its own end.
    await this.target.query(statements.join('\n;\n'));
  }
}
