import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { RequestError } from '../common/errors/request-error';
import { validateInput } from '../common/validation/validate-input';
import { MCP_TOOL, McpToolOptions } from './mcp-tool.decorator';

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
  [key: string]: unknown;
}

export interface RegisteredTool {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  /** Validates the raw arguments and runs the tool. */
  invoke(args: unknown): Promise<unknown>;
}

/**
 * The one registry of MCP tools. Every provider method decorated with @McpTool
 * is registered at boot; the names are unique or the boot fails.
 */
@Injectable()
export class ToolRegistry implements OnModuleInit {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit() {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance);
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const options = this.reflector.get<McpToolOptions | undefined>(MCP_TOOL, prototype[method]);
        if (!options) continue;
        if (this.tools.has(options.name)) throw new Error(`MCP tool ${options.name} is declared twice`);
        const handler = (prototype[method] as (input: unknown) => Promise<unknown>).bind(instance);
        const inputSchema = toolSchema(options);
        this.tools.set(options.name, {
          name: options.name,
          description: options.description,
          inputSchema,
          invoke: async (args) => handler(options.input ? await validateInput(options.input, args, 'arguments') : noArguments(args)),
        });
      }
    }
  }

  list(): RegisteredTool[] {
    return [...this.tools.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }
}

/** A tool without an input class takes no arguments: any given is refused, as its schema says. */
function noArguments(args: unknown): undefined {
  if (args === undefined || args === null) return undefined;
  if (typeof args !== 'object' || Array.isArray(args)) throw RequestError.invalidInput('arguments must be a JSON object');
  const [first] = Object.keys(args);
  if (first !== undefined) throw RequestError.invalidInput(`unknown field ${first}`);
  return undefined;
}

/**
 * JSON Schema of the input class, including rules it inherits (IntersectionType, PickType, ...).
 * Nested classes (`@ValidateNested`) come out as `$ref`s to definitions the schema does not hold;
 * they are written in place, so every listed schema stands alone and compiles in any validator.
 */
function toolSchema(options: McpToolOptions): JsonSchemaObject {
  if (!options.input) return { type: 'object', properties: {}, additionalProperties: false };
  const schema = targetConstructorToSchema(options.input, SCHEMA_OPTIONS) as Partial<JsonSchemaObject>;
  if (!schema.properties || Object.keys(schema.properties).length === 0) {
    throw new Error(`MCP tool ${options.name}: input class ${options.input.name} declares no validated fields`);
  }
  return inlineRefs({ ...schema, type: 'object', properties: schema.properties ?? {}, additionalProperties: false }, options.name, []) as JsonSchemaObject;
}

// class-transformer's metadata store, as class-validator-jsonschema's documentation has it read:
// the package ships its declaration apart from the module (types/ and cjs/), so it is typed here.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the module and its declaration live in different folders
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/** Both libraries' metadata: class-transformer's `@Type` names the class of a nested field typed `X | null`. */
const SCHEMA_OPTIONS = { classValidatorMetadataStorage: getMetadataStorage(), classTransformerMetadataStorage: defaultMetadataStorage };

const DEFINITION_REF = /^#\/definitions\/(.+)$/;
const BUILT_IN_TYPES = new Set(['Object', 'Array', 'String', 'Number', 'Boolean', 'Date']);
let definitions: Record<string, unknown> | undefined;

/** `node` with every `#/definitions/<Class>` reference replaced by that class's schema (refusing a class that contains itself). */
function inlineRefs(node: unknown, tool: string, path: string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(item, tool, path));
  if (!node || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Record<string, unknown>;
  if (typeof $ref === 'string') {
    const name = DEFINITION_REF.exec($ref)?.[1];
    // A field typed as a union (`string | null`) reflects as Object: nothing to write out, the server validates it.
    if (name && BUILT_IN_TYPES.has(name)) return inlineRefs(rest, tool, path);
    definitions ??= validationMetadatasToSchemas(SCHEMA_OPTIONS);
    const target = name ? definitions[name] : undefined;
    if (!name || !target) throw new Error(`MCP tool ${tool}: schema reference ${$ref} names no input class`);
    if (path.includes(name)) throw new Error(`MCP tool ${tool}: input class ${name} contains itself; its schema cannot be written out`);
    const nested = inlineRefs(target, tool, [...path, name]) as Record<string, unknown>;
    // A nested class refuses unknown fields like the tool's own input.
    return { ...nested, ...(nested.properties ? { additionalProperties: false } : {}), ...(inlineRefs(rest, tool, path) as object) };
  }
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inlineRefs(value, tool, path)]));
}
