import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
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

/** JSON Schema of the input class, including rules it inherits (IntersectionType, PickType, ...). */
function toolSchema(options: McpToolOptions): JsonSchemaObject {
  if (!options.input) return { type: 'object', properties: {}, additionalProperties: false };
  const schema = targetConstructorToSchema(options.input, { classValidatorMetadataStorage: getMetadataStorage() }) as Partial<JsonSchemaObject>;
  if (!schema.properties || Object.keys(schema.properties).length === 0) {
    throw new Error(`MCP tool ${options.name}: input class ${options.input.name} declares no validated fields`);
  }
  return { ...schema, type: 'object', properties: schema.properties ?? {}, additionalProperties: false };
}
