import { IntersectionType } from '@nestjs/mapped-types';
import { getMetadataStorage } from 'class-validator';
import { InputClass, validateInput } from '../common/validation/validate-input';
import { RequestError } from '../common/errors/request-error';
import { McpToolOptions } from './mcp-tool.decorator';

/**
 * How a tool's arguments become its handler's arguments: `schemaClass` is the class the listed
 * schema is written from and the arguments are validated against (both declared classes together,
 * as one object of arguments has them together), and `read` validates once and hands back one
 * instance per declared class.
 */
export interface ToolInput {
  schemaClass?: InputClass<object>;
  read(args: unknown): Promise<unknown[]>;
}

/** Built once per tool at boot. Refuses a tool whose params and body declare the same field: one argument cannot feed both. */
export function toolInput(options: McpToolOptions): ToolInput {
  const { name, input, params, body } = options;
  if (input && (params || body)) throw new Error(`MCP tool ${name}: declare input, or params and body, not both`);
  if (!params !== !body) throw new Error(`MCP tool ${name}: params and body are declared together`);
  if (input) return { schemaClass: input, read: async (args) => [await validateInput(input, args, 'arguments')] };
  if (!params || !body) return { read: async (args) => [noArguments(args)] };

  const parts = [params, body].map((cls) => ({ cls, fields: fieldsOf(cls) }));
  const shared = [...parts[0].fields].filter((field) => parts[1].fields.has(field));
  if (shared.length > 0) throw new Error(`MCP tool ${name}: params ${params.name} and body ${body.name} both declare ${shared.join(', ')}`);
  const schemaClass = IntersectionType(params, body) as InputClass<object>;
  return {
    schemaClass,
    read: async (args) => {
      const validated = (await validateInput(schemaClass, args, 'arguments')) as Record<string, unknown>;
      return parts.map(({ cls, fields }) => pick(cls, fields, validated));
    },
  };
}

/** The fields a class validates, its inherited ones included: the names class-validator whitelists. */
function fieldsOf(cls: InputClass<object>): Set<string> {
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(cls, '', false, false)
      .map((metadata) => metadata.propertyName),
  );
}

/** An instance of `cls`, built as the REST door builds it (constructor first), holding the given values of its own fields. */
function pick(cls: InputClass<object>, fields: Set<string>, from: Record<string, unknown>): object {
  const part = new cls() as Record<string, unknown>;
  for (const field of fields) {
    if (Object.hasOwn(from, field)) part[field] = from[field];
  }
  return part;
}

/** A tool without an input class takes no arguments: any given is refused, as its schema says. */
function noArguments(args: unknown): undefined {
  if (args === undefined || args === null) return undefined;
  if (typeof args !== 'object' || Array.isArray(args)) throw RequestError.invalidInput('arguments must be a JSON object');
  const [first] = Object.keys(args);
  if (first !== undefined) throw RequestError.invalidInput(`unknown field ${first}`);
  return undefined;
}
