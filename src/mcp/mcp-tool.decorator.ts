import { SetMetadata } from '@nestjs/common';
import { InputClass } from '../common/validation/validate-input';
import { ToolAnnotations } from './tool-annotations';
import { OutputSchema } from './tool-schema';

export const MCP_TOOL = 'baton:mcp-tool';

interface McpToolBase {
  /** The tool name of the contract (service-spec). */
  name: string;
  description: string;
  /** What a call does to Baton's state; required so that no tool is listed without it (presets in tool-annotations.ts). */
  annotations: ToolAnnotations;
  /** The result object's shape, for the tools an assistant's loop calls most; such a tool must answer an object. */
  outputSchema?: OutputSchema;
}

/**
 * What the registry keeps of a tool's declaration. A tool takes no arguments, one input class, or
 * the two classes its REST route takes (path parameters and body or query), so it reads like the
 * controller method and validates by the same rules.
 */
export interface McpToolOptions extends McpToolBase {
  input?: InputClass<object>;
  params?: InputClass<object>;
  body?: InputClass<object>;
}

/** Reads only the method (not TypedPropertyDescriptor's setter), so any return type fits and the parameters are checked. */
type ToolMethodDecorator<F> = (target: object, key: string | symbol, descriptor: { value?: F }) => void;

/**
 * Marks a method of a `*.tools.ts` provider as an MCP tool; the registry finds it at boot. The
 * arguments are validated once against the declared classes together, then the method receives
 * an instance of each declared class holding that class's fields: `(params, body)`, `(input)`, or
 * nothing. The overloads make the compiler hold the method to the classes it declares.
 */
export function McpTool<P extends object, B extends object>(
  options: McpToolBase & { params: InputClass<P>; body: InputClass<B> },
): ToolMethodDecorator<(params: P, body: B) => unknown>;
export function McpTool<I extends object>(options: McpToolBase & { input: InputClass<I> }): ToolMethodDecorator<(input: I) => unknown>;
export function McpTool(options: McpToolBase): ToolMethodDecorator<() => unknown>;
export function McpTool(options: McpToolOptions): MethodDecorator {
  return SetMetadata(MCP_TOOL, options);
}
