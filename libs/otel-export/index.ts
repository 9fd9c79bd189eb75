export { backoffDelayMs } from './backoff';
export { createOtlpSender, ChunkSender, DegradedReason, ExportPassResult, ExportSource, PassClock, PendingRecord, runExportPass } from './export-pass';
export { LoadResult, loadOtlpLibrary, ModuleRequire, OtlpLibrary, RESOURCES_PACKAGE, SERIALIZER_PACKAGE } from './loader';
export { describeFailure, ExportLogRecord, ExportTarget, OtlpChunkSender, SendOutcome } from './otlp-sender';
export {
  checkEndpoint,
  clamp,
  clampedSetting,
  DEFAULT_EXPORT_NUMBERS,
  effectiveNumbers,
  EXPORT_LIMITS,
  ExportNumbers,
  logsEndpointFromBase,
  NumberLimit,
  otlpEndpoint,
  otlpHeaders,
} from './settings';
