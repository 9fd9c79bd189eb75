import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';

/** TypeORM's column metadata, named through its public EntityMetadata (the package root does not export the class). */
type ColumnMetadata = EntityMetadata['columns'][number];

interface Lookup {
  metadata: EntityMetadata;
  sql: string;
  columns: ColumnMetadata[];
}

const lookups = new WeakMap<EntityMetadata, Lookup>();

/**
 * `manager.findOneBy(Entity, { id })` for the lookups that run on every call
 * (the project of a request, above all), without building a query each time:
 * the statement is written once per entity, and rows are read with TypeORM's
 * own column conversions, so the result is the same entity `findOneBy` gives
 * (columns marked `select: false` stay unloaded; no relations, no listeners).
 */
export async function findById<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, id: string): Promise<T | null> {
  const lookup = lookupFor(manager, target);
  const rows: Record<string, unknown>[] = await manager.query(lookup.sql, [id]);
  if (rows.length === 0) return null;
  const driver = manager.connection.driver;
  const entity = lookup.metadata.create() as T;
  for (const column of lookup.columns) {
    column.setEntityValue(entity, driver.prepareHydratedValue(rows[0][column.databaseName], column));
  }
  return entity;
}

function lookupFor(manager: EntityManager, target: EntityTarget<ObjectLiteral>): Lookup {
  const metadata = manager.connection.getMetadata(target);
  let lookup = lookups.get(metadata);
  if (!lookup) {
    const driver = manager.connection.driver;
    const [primary, ...more] = metadata.primaryColumns;
    if (!primary || more.length > 0) throw new Error(`findById needs a single-column primary key on ${metadata.tableName}`);
    const columns = metadata.columns.filter((column) => column.isSelect && !column.isVirtual);
    const placeholder = driver.options.type === 'postgres' ? '$1' : '?';
    const list = columns.map((column) => driver.escape(column.databaseName)).join(', ');
    const sql = `SELECT ${list} FROM ${driver.escape(metadata.tableName)} WHERE ${driver.escape(primary.databaseName)} = ${placeholder}`;
    lookups.set(metadata, (lookup = { metadata, sql, columns }));
  }
  return lookup;
}
