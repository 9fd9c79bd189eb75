import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { classTransformerMetadata } from '../common/validation/class-transformer-storage';
import { InputClass } from '../common/validation/validate-input';
import { MCP_TOOL, McpToolOptions } from './mcp-tool.decorator';
import { ToolAnnotations } from './tool-annotations';
import { toolInput } from './tool-input';
import { listedSchema, OutputSchema } from './tool-schema';
import { ToolText } from './tool-text';

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
  /** As listed: the shortened form of the rules the arguments are validated by (tool-schema.ts). */
  inputSchema: JsonSchemaObject;
  /** The rules the arguments are validated by, in full, patterns and caps included (served by GET /tools). */
  rulesSchema: JsonSchemaObject;
  annotations: ToolAnnotations;
  outputSchema?: OutputSchema;
  /** Validates the raw arguments and runs the tool. */
  invoke(args: unknown): Promise<unknown>;
  /** For a tool with an outputSchema: its result as the structured content the schema describes. */
  structured?(result: unknown): Record<string, unknown>;
}

/**
 * The one registry of MCP tools. Every provider method decorated with @McpTool
 * is registered at boot; the names are unique or the boot fails. Each tool's
 * JSON Schemas are written out the first time they are read.
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
        const handler = (prototype[method] as (...inputs: unknown[]) => Promise<unknown>).bind(instance);
        const input = toolInput(options);
        // Written out when first listed, not at boot: about 200 ms of a start spent on schemas a
        // process may never serve (a self-hosted instance used only through REST). A tool whose
        // schema cannot be written fails its first listing, which every MCP suite does.
        let schemas: { rules: JsonSchemaObject; listed: JsonSchemaObject } | undefined;
        const schemasOf = () => {
          if (!schemas) {
            const rules = toolSchema(options.name, input.schemaClass);
            schemas = { rules, listed: listedSchema(rules) };
          }
          return schemas;
        };
        this.tools.set(options.name, {
          name: options.name,
          description: options.description,
          get inputSchema() {
            return schemasOf().listed;
          },
          get rulesSchema() {
            return schemasOf().rules;
          },
          annotations: options.annotations,
          outputSchema: options.outputSchema,
          invoke: async (args) => handler(...(await input.read(args))),
          structured: options.outputSchema ? structuredOf : undefined,
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

/**
 * Structured content is an object: a text result (ToolText) is given as `{text}` and a list as
 * `{items}`, while the text content keeps the form it always had.
 */
function structuredOf(result: unknown): Record<string, unknown> {
  if (result instanceof ToolText) return { text: result.text };
  if (Array.isArray(result)) return { items: result };
  if (result && typeof result === 'object') return result as Record<string, unknown>;
  return { ok: true };
}

/**
 * JSON Schema of the input class, including rules it inherits (IntersectionType, PickType, ...).
 * Nested classes (`@ValidateNested`) come out as `$ref`s to definitions the schema does not hold;
 * they are written in place, so every listed schema stands alone and compiles in any validator.
 */
function toolSchema(tool: string, inputClass: InputClass<object> | undefined): JsonSchemaObject {
  if (!inputClass) return { type: 'object', properties: {}, additionalProperties: false };
  const schema = targetConstructorToSchema(inputClass, SCHEMA_OPTIONS) as Partial<JsonSchemaObject>;
  if (!schema.properties || Object.keys(schema.properties).length === 0) {
    throw new Error(`MCP tool ${tool}: input class ${inputClass.name} declares no validated fields`);
  }
  return inlineRefs({ ...schema, type: 'object', properties: schema.properties ?? {}, additionalProperties: false }, tool, []) as JsonSchemaObject;
}

/** Both libraries' metadata: class-transformer's `@Type` names the class of a nested field typed `X | null`. */
const SCHEMA_OPTIONS = { classValidatorMetadataStorage: getMetadataStorage(), classTransformerMetadataStorage: classTransformerMetadata };

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
