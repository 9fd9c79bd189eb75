type Schema = Record<string, unknown>;

/**
 * TypeScript declarations of the document's component schemas, for the
 * dashboard: its API types come from the OpenAPI document (itself built from
 * the server's code), not from hand-written copies. Covers the JSON Schema the
 * document uses (SchemaWriter): types, const, enum, anyOf, allOf, arrays,
 * tuples, objects with required and additional properties, and `$ref`.
 */
export function renderSchemaTypes(schemas: Record<string, Schema>): string {
  const lines = ['// Written by `npm run build` (src/cli/openapi.ts) from the OpenAPI document: do not edit.', '/* eslint-disable */', 'export interface Schemas {'];
  for (const [name, schema] of Object.entries(schemas)) lines.push(`  ${JSON.stringify(name)}: ${typeOf(schema)};`);
  lines.push('}', '');
  return lines.join('\n');
}

function typeOf(schema: Schema): string {
  if (typeof schema.$ref === 'string') return `Schemas[${JSON.stringify(schema.$ref.replace('#/components/schemas/', ''))}]`;
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema.anyOf)) return `(${(schema.anyOf as Schema[]).map(typeOf).join(' | ')})`;
  if (Array.isArray(schema.allOf)) return `(${(schema.allOf as Schema[]).map(typeOf).join(' & ')})`;
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      if (Array.isArray(schema.prefixItems)) return `[${(schema.prefixItems as Schema[]).map(typeOf).join(', ')}]`;
      return `Array<${typeOf((schema.items as Schema | undefined) ?? {})}>`;
    case 'object':
      return objectType(schema);
    default:
      return 'unknown';
  }
}

function objectType(schema: Schema): string {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {}).map(
    ([name, property]) => `${JSON.stringify(name)}${required.has(name) ? '' : '?'}: ${typeOf(property)}`,
  );
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') properties.push(`[key: string]: ${typeOf(schema.additionalProperties as Schema)}`);
  return properties.length ? `{ ${properties.join('; ')} }` : 'Record<string, unknown>';
}
