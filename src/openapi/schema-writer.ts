import * as path from 'node:path';
import * as ts from 'typescript';

type Schema = Record<string, unknown>;

/**
 * Turns TypeScript types (views, DTO classes, unions of literals) into JSON
 * Schema 2020-12, the dialect of OpenAPI 3.1. A named interface, class or type
 * alias declared in Baton's own sources becomes a component (`$ref`), so a
 * view is described once however many routes answer it.
 */
export class SchemaWriter {
  private readonly named = new Map<string, Schema>();
  private readonly nameOfSymbol = new Map<ts.Symbol, string>();
  private readonly building = new Set<ts.Symbol>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly sourceRoot: string,
  ) {}

  components(): Record<string, Schema> {
    return Object.fromEntries([...this.named.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  unwrapPromise(type: ts.Type): ts.Type {
    const symbol = type.getSymbol();
    if (symbol?.name === 'Promise') {
      const [inner] = this.checker.getTypeArguments(type as ts.TypeReference);
      if (inner) return inner;
    }
    return type;
  }

  schemaOf(type: ts.Type): Schema {
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (flags & ts.TypeFlags.StringLiteral) return { type: 'string', const: (type as ts.StringLiteralType).value };
    if (flags & ts.TypeFlags.NumberLiteral) return { type: 'number', const: (type as ts.NumberLiteralType).value };
    if (flags & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: this.checker.typeToString(type) === 'true' };
    if (flags & ts.TypeFlags.String) return { type: 'string' };
    if (flags & ts.TypeFlags.Number) return { type: 'number' };
    if (flags & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (flags & ts.TypeFlags.BigInt) return { type: 'string' };
    if (flags & ts.TypeFlags.Null) return { type: 'null' };
    if (flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Never)) return {};
    if (type.isUnion()) return this.union(type);
    if (type.isIntersection()) return { allOf: type.types.map((t) => this.schemaOf(t)) };
    const symbol = type.getSymbol() ?? type.aliasSymbol;
    const builtin = symbol && builtIn(symbol.name);
    if (builtin) return builtin;
    if (this.checker.isArrayType(type)) {
      const [item] = this.checker.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: item ? this.schemaOf(item) : {} };
    }
    if (this.checker.isTupleType(type)) {
      const items = this.checker.getTypeArguments(type as ts.TypeReference).map((t) => this.schemaOf(t));
      return { type: 'array', prefixItems: items, minItems: items.length, maxItems: items.length };
    }
    if (flags & ts.TypeFlags.Object) return this.object(type as ts.ObjectType);
    return {};
  }

  private union(type: ts.UnionType): Schema {
    const members = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const named = type.aliasSymbol && this.componentName(type.aliasSymbol);
    const build = (): Schema => {
      if (members.length > 0 && members.every((t) => t.flags & ts.TypeFlags.StringLiteral)) {
        return { type: 'string', enum: members.map((t) => (t as ts.StringLiteralType).value) };
      }
      const booleans = members.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
      const rest = members.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
      const schemas = [...(booleans.length === 2 ? [{ type: 'boolean' }] : booleans.map((t) => this.schemaOf(t))), ...rest.map((t) => this.schemaOf(t))];
      return schemas.length === 1 ? schemas[0] : { anyOf: schemas };
    };
    if (!named || !type.aliasSymbol) return build();
    return this.component(type.aliasSymbol, named, build);
  }

  private object(type: ts.ObjectType): Schema {
    const symbol = type.aliasSymbol ?? type.getSymbol();
    const hasTypeArguments = (type.aliasTypeArguments?.length ?? 0) > 0 || ((type as ts.TypeReference).typeArguments?.length ?? 0) > 0;
    const name = symbol && !hasTypeArguments ? this.componentName(symbol) : undefined;
    if (name && symbol) return this.component(symbol, name, () => this.properties(type));
    return this.properties(type);
  }

  private properties(type: ts.Type): Schema {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const property of this.checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (declaration && (ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration))) continue;
      const propertyType = declaration ? this.checker.getTypeOfSymbolAtLocation(property, declaration) : this.checker.getTypeOfSymbol(property);
      if (propertyType.getCallSignatures().length > 0) continue;
      properties[property.name] = this.schemaOf(propertyType);
      const optional = property.flags & ts.SymbolFlags.Optional || (propertyType.isUnion() && propertyType.types.some((t) => t.flags & ts.TypeFlags.Undefined));
      if (!optional) required.push(property.name);
    }
    const schema: Schema = { type: 'object', properties };
    if (required.length) schema.required = required;
    const index = this.checker.getIndexInfoOfType(type, ts.IndexKind.String);
    if (index) schema.additionalProperties = this.schemaOf(index.type);
    return schema;
  }

  private component(symbol: ts.Symbol, name: string, build: () => Schema): Schema {
    const ref = { $ref: `#/components/schemas/${name}` };
    if (this.named.has(name) || this.building.has(symbol)) return ref;
    this.building.add(symbol);
    this.named.set(name, {});
    this.named.set(name, build());
    this.building.delete(symbol);
    return ref;
  }

  /** A component name for a symbol declared in Baton's own sources; unique even when two files reuse a name. */
  private componentName(symbol: ts.Symbol): string | undefined {
    const known = this.nameOfSymbol.get(symbol);
    if (known) return known;
    const declaration = symbol.declarations?.[0];
    const file = declaration?.getSourceFile().fileName;
    if (!file || !file.startsWith(this.sourceRoot) || symbol.name.startsWith('__')) return undefined;
    let name = symbol.name;
    const taken = new Set(this.nameOfSymbol.values());
    if (taken.has(name)) name = `${path.basename(path.dirname(file))}.${symbol.name}`;
    for (let i = 2; taken.has(name); i++) name = `${symbol.name}${i}`;
    this.nameOfSymbol.set(symbol, name);
    return name;
  }
}

function builtIn(name: string): Schema | undefined {
  if (name === 'Date') return { type: 'string', format: 'date-time' };
  if (name === 'Buffer' || name === 'Uint8Array') return { type: 'string', format: 'binary' };
  if (name === 'URL') return { type: 'string', format: 'uri' };
  return undefined;
}
