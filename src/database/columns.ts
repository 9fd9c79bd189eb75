import { Column, ColumnOptions, PrimaryColumn } from 'typeorm';

/**
 * Column decorators for tenant entities that map the same way on SQLite and
 * Postgres. Migrations declare the real types (uuid/varchar(36),
 * timestamptz/datetime); these tell TypeORM how to read and write them.
 */

/** A UUID primary key (uuid on Postgres, varchar(36) on SQLite). */
export const PrimaryIdColumn = () => PrimaryColumn({ type: 'varchar', length: 36 });

/** A UUID reference to another row. */
export const IdColumn = (options: Pick<ColumnOptions, 'nullable'> = {}) => Column({ type: 'varchar', length: 36, ...options });

/**
 * A point in time, stored in UTC (timestamptz on Postgres, datetime text on
 * SQLite). Always declare it with this, never a bare `@Column()`: a nullable
 * `Date | null` property carries no usable type metadata.
 */
export const TimestampColumn = (options: Pick<ColumnOptions, 'nullable'> = {}) => Column({ type: Date, ...options });
