import type { JsonLogsSerializer } from '@opentelemetry/otlp-transformer';
import type { resourceFromAttributes } from '@opentelemetry/resources';

/** The parts of the OpenTelemetry packages an export pass uses, all of them public API. */
export interface OtlpLibrary {
  /** Turns log records into the OTLP/HTTP JSON request body. */
  JsonLogsSerializer: typeof JsonLogsSerializer;
  resourceFromAttributes: typeof resourceFromAttributes;
}

export type LoadResult = { available: true; library: OtlpLibrary } | { available: false; reason: string };

/** How a module is loaded: Node's `require` by default; tests pass one that fails to simulate absence. */
export type ModuleRequire = (id: string) => unknown;

/**
 * The package that writes OTLP request bodies. Its serializer is marked experimental ("may
 * receive breaking changes in minor versions, pin this package's version"), so package.json
 * pins it exactly; `test/library-contracts.spec.ts` checks the body it writes.
 */
export const SERIALIZER_PACKAGE = '@opentelemetry/otlp-transformer';
export const RESOURCES_PACKAGE = '@opentelemetry/resources';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loads a package named at run time, at the moment export needs it (see loadOtlpLibrary)
const nodeRequire: ModuleRequire = (id) => require(id);

/**
 * Loads the OpenTelemetry packages at the moment they are needed, never before:
 * nothing in this file imports them at module level, so a process whose export
 * is switched off never has them in memory. A missing (or broken) installation
 * is reported as unavailable instead of thrown, so the rest of the AI-log keeps
 * working without it.
 */
export function loadOtlpLibrary(requireModule: ModuleRequire = nodeRequire): LoadResult {
  try {
    const transformer = requireModule(SERIALIZER_PACKAGE) as { JsonLogsSerializer?: OtlpLibrary['JsonLogsSerializer'] };
    const resources = requireModule(RESOURCES_PACKAGE) as { resourceFromAttributes?: OtlpLibrary['resourceFromAttributes'] };
    if (typeof transformer.JsonLogsSerializer?.serializeRequest !== 'function' || typeof resources.resourceFromAttributes !== 'function') {
      return { available: false, reason: 'the installed OpenTelemetry packages do not provide JsonLogsSerializer and resourceFromAttributes' };
    }
    return { available: true, library: { JsonLogsSerializer: transformer.JsonLogsSerializer, resourceFromAttributes: resources.resourceFromAttributes } };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      return { available: false, reason: `${SERIALIZER_PACKAGE} is not installed` };
    }
    return { available: false, reason: `the OpenTelemetry packages failed to load (${(error as Error).name})` };
  }
}
