import type { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import type { resourceFromAttributes } from '@opentelemetry/resources';

/** The parts of the OpenTelemetry packages an export pass uses. */
export interface OtlpLibrary {
  OTLPLogExporter: typeof OTLPLogExporter;
  resourceFromAttributes: typeof resourceFromAttributes;
}

export type LoadResult = { available: true; library: OtlpLibrary } | { available: false; reason: string };

/** How a module is loaded: Node's `require` by default; tests pass one that fails to simulate absence. */
export type ModuleRequire = (id: string) => unknown;

export const EXPORTER_PACKAGE = '@opentelemetry/exporter-logs-otlp-http';
export const RESOURCES_PACKAGE = '@opentelemetry/resources';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loads a package named at run time, at the moment export needs it (see loadOtlpLibrary)
const nodeRequire: ModuleRequire = (id) => require(id);

/**
 * Loads the OTLP exporter library at the moment it is needed, never before:
 * nothing in this file imports it at module level, so a process whose export
 * is switched off never has it in memory. A missing (or broken) installation
 * is reported as unavailable instead of thrown, so the rest of the AI-log keeps
 * working without it.
 */
export function loadOtlpLibrary(requireModule: ModuleRequire = nodeRequire): LoadResult {
  try {
    const exporter = requireModule(EXPORTER_PACKAGE) as { OTLPLogExporter?: OtlpLibrary['OTLPLogExporter'] };
    const resources = requireModule(RESOURCES_PACKAGE) as { resourceFromAttributes?: OtlpLibrary['resourceFromAttributes'] };
    if (typeof exporter.OTLPLogExporter !== 'function' || typeof resources.resourceFromAttributes !== 'function') {
      return { available: false, reason: 'the installed OpenTelemetry packages do not provide OTLPLogExporter and resourceFromAttributes' };
    }
    return { available: true, library: { OTLPLogExporter: exporter.OTLPLogExporter, resourceFromAttributes: resources.resourceFromAttributes } };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      return { available: false, reason: `${EXPORTER_PACKAGE} is not installed` };
    }
    return { available: false, reason: `the OpenTelemetry packages failed to load (${(error as Error).name})` };
  }
}
