import { QueryRunner } from 'typeorm';
import { Dialect } from '../libs/tenancy';

/** The dialect a migration is running against. */
export function dialectOf(runner: QueryRunner): Dialect {
  return runner.connection.options.type === 'postgres' ? 'postgres' : 'sqlite';
}
