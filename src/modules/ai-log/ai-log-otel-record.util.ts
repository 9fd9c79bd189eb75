import type { ExportLogRecord } from '../../../libs/otel-export/otlp-sender';
import { AiLogEventRow, toEventView } from './ai-log-event.view';

/** OpenTelemetry severity numbers (logs data model). */
const INFO = 9;
const WARN = 13;
const ERROR = 17;

const EVENT_NAMES = {
  session_start: 'baton.session.start',
  tool_call: 'baton.tool.call',
  handoff_correction: 'baton.handoff.correction',
  sprint_verification: 'baton.sprint.verification',
} as const;

/**
 * One AI-log event as an OTLP log record. The body is the event's one-line
 * summary; the attributes carry what a collector filters on. Arguments are the
 * already-redacted ones stored with the event.
 */
export function toExportRecord(row: AiLogEventRow, tenantId: string): ExportLogRecord {
  const e = toEventView(row);
  const attributes: Record<string, string | number | boolean> = {
    'baton.event.id': e.id,
    'baton.event.seq': e.seq,
    'baton.event.kind': e.kind,
    'baton.tenant.id': tenantId,
  };
  if (e.project_id) attributes['baton.project.id'] = e.project_id;
  if (e.session_id) attributes['session.id'] = e.session_id;
  let severity = INFO;
  if (e.kind === 'tool_call') {
    attributes['gen_ai.tool.name'] = e.tool ?? '';
    attributes['baton.tool.outcome'] = e.outcome ?? 'ok';
    if (e.duration_ms !== null) attributes['baton.tool.duration_ms'] = e.duration_ms;
    attributes['baton.tool.arguments'] = JSON.stringify(e.data.arguments ?? {});
    if (e.error_code) attributes['baton.tool.error_code'] = e.error_code;
    if (typeof e.data.error_detail === 'string') attributes['baton.tool.error_detail'] = e.data.error_detail;
    if (e.outcome === 'error') severity = e.error_code === 'INTERNAL' ? ERROR : WARN;
  } else if (e.kind === 'session_start') {
    for (const key of ['name', 'human_id', 'kind'] as const) {
      if (typeof e.data[key] === 'string') attributes[`baton.session.${key}`] = e.data[key] as string;
    }
  } else if (e.kind === 'sprint_verification') {
    if (typeof e.data.item_id === 'string') attributes['baton.sprint.item_id'] = e.data.item_id;
    if (typeof e.data.passed === 'boolean') attributes['baton.sprint.verification_passed'] = e.data.passed;
    if (e.data.passed === false) severity = WARN;
  } else {
    severity = WARN;
    if (typeof e.data.correction_id === 'string') attributes['baton.handoff.correction_id'] = e.data.correction_id;
  }
  return {
    timeMs: new Date(e.occurred_at).getTime(),
    severityNumber: severity,
    severityText: severity === INFO ? 'INFO' : severity === WARN ? 'WARN' : 'ERROR',
    eventName: EVENT_NAMES[e.kind],
    body: e.summary,
    attributes,
  };
}
