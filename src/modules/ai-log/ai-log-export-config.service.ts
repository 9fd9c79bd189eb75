import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { checkEndpoint, effectiveNumbers, ExportNumbers, logsEndpointFromBase } from '../../../libs/otel-export/settings';
import { OutboundGuard, OutboundRefusedError } from '../../../libs/outbound-guard';
import { findSecret, redactSecrets } from '../../../libs/secrets';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { HTTP_OUTBOUND_GUARD } from '../../common/outbound/outbound-guards';
import { requireProject } from '../projects/require-project.util';
import { AiLogExportConfig } from './ai-log-export-config.entity';
import { AiLogError } from './ai-log.errors';
import { SetExportConfigDto } from './dto/set-export-config.dto';

export type EndpointSource = 'SERVICE_AI_LOG_OTEL_ENDPOINT' | 'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'project';
export type ServiceNameSource = 'project' | 'SERVICE_AI_LOG_OTEL_SERVICE_NAME' | 'OTEL_SERVICE_NAME' | 'default';
export type DisabledReason = 'operator' | 'project' | 'no_endpoint';

/** What a project's export would do now. Never holds a header value. */
export interface EffectiveExportConfig {
  enabled: boolean;
  /** Why export is off: the operator's master switch, the project's `enabled: false`, or no endpoint anywhere. */
  disabled_reason: DisabledReason | null;
  operator_enabled: boolean;
  endpoint: string | null;
  endpoint_source: EndpointSource | null;
  service_name: string;
  service_name_source: ServiceNameSource;
  /** Whether headers (usually the collector's credential) are configured; their values are never shown. */
  headers_configured: boolean;
  header_names: string[];
  headers_source: 'SERVICE_AI_LOG_OTEL_HEADERS' | 'OTEL_EXPORTER_OTLP_HEADERS' | null;
  /** SERVICE_AI_LOG_OTEL_TRACECOLLECTOR_COMPAT: adds resource attribute service.otel_sink_hint. */
  sink_hint: boolean;
  settings: { batch_size: number; chunk_size: number; max_retries: number; backoff_base_s: number; timeout_s: number; total_deadline_s: number };
  /** The project's own settings (null for the events that belong to no project, or when never set). */
  project_override: { endpoint: string | null; service_name: string | null; enabled: boolean } | null;
}

/** The effective configuration plus what only the export pass may see. */
export interface ResolvedExport {
  view: EffectiveExportConfig;
  headers: Record<string, string>;
  numbers: ExportNumbers;
}

export const SINK_HINT_VALUE = 'tracecollector';

/**
 * Resolves the AI-log export configuration exactly as service spec §6 orders
 * it: the operator's master switch first; the endpoint from
 * SERVICE_AI_LOG_OTEL_ENDPOINT, then OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, then
 * OTEL_EXPORTER_OTLP_ENDPOINT + /v1/logs, then the project's override; headers
 * from SERVICE_AI_LOG_OTEL_HEADERS, then OTEL_EXPORTER_OTLP_HEADERS, sent only
 * to an endpoint the operator set (never to the project's); the
 * numbers of §8 clamped. Also stores a project's own settings, which never
 * turn export on and never hold a credential.
 */
@Injectable()
export class AiLogExportConfigService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(HTTP_OUTBOUND_GUARD) private readonly guard: OutboundGuard,
  ) {}

  /** The configuration of a project (or, for null, of the events that belong to no project). */
  async resolve(m: EntityManager, projectId: string | null): Promise<ResolvedExport> {
    const own = projectId ? await m.findOneBy(AiLogExportConfig, { project_id: projectId }) : null;
    return this.resolveWith(own);
  }

  resolveWith(own: AiLogExportConfig | null): ResolvedExport {
    const c = this.config;
    const endpoints: [EndpointSource, string | undefined | null][] = [
      ['SERVICE_AI_LOG_OTEL_ENDPOINT', c.aiLogOtelEndpoint],
      ['OTEL_EXPORTER_OTLP_LOGS_ENDPOINT', c.otelLogsEndpoint],
      ['OTEL_EXPORTER_OTLP_ENDPOINT', c.otelEndpoint ? logsEndpointFromBase(c.otelEndpoint) : undefined],
      ['project', own?.otlp_endpoint],
    ];
    const [endpointSource, endpoint] = endpoints.find(([, value]) => Boolean(value)) ?? [null, null];
    const names: [ServiceNameSource, string | undefined | null][] = [
      ['project', own?.service_name],
      ['SERVICE_AI_LOG_OTEL_SERVICE_NAME', c.aiLogOtelServiceName],
      ['OTEL_SERVICE_NAME', c.otelServiceName],
    ];
    const [nameSource, serviceName] = names.find(([, value]) => Boolean(value)) ?? ['default' as const, 'service'];
    // The operator's headers are the collector's credential: they go to the operator's endpoint only, never to one a project chose.
    const toOperator = endpointSource !== 'project';
    const headersSource = !toOperator ? null : c.aiLogOtelHeaders ? 'SERVICE_AI_LOG_OTEL_HEADERS' : c.otelHeaders ? 'OTEL_EXPORTER_OTLP_HEADERS' : null;
    const headers = toOperator ? (c.aiLogOtelHeaders ?? c.otelHeaders ?? {}) : {};
    const numbers = effectiveNumbers({
      batchSize: c.aiLogOtelBatchSize,
      chunkSize: c.aiLogOtelChunkSize,
      maxRetries: c.aiLogOtelMaxRetries,
      backoffBaseS: c.aiLogOtelBackoffBaseS,
      timeoutS: c.aiLogOtelTimeoutS,
      totalDeadlineS: c.aiLogOtelTotalDeadlineS,
    });
    const disabledReason: DisabledReason | null = !c.aiLogOtelEnabled ? 'operator' : own && !own.enabled ? 'project' : !endpoint ? 'no_endpoint' : null;
    return {
      headers,
      numbers,
      view: {
        enabled: disabledReason === null,
        disabled_reason: disabledReason,
        operator_enabled: c.aiLogOtelEnabled,
        endpoint: endpoint ?? null,
        endpoint_source: endpointSource,
        service_name: serviceName as string,
        service_name_source: nameSource,
        headers_configured: Object.keys(headers).length > 0,
        header_names: Object.keys(headers).sort(),
        headers_source: headersSource,
        sink_hint: c.aiLogOtelSinkHint,
        settings: {
          batch_size: numbers.batchSize,
          chunk_size: numbers.chunkSize,
          max_retries: numbers.maxRetries,
          backoff_base_s: numbers.backoffBaseS,
          timeout_s: numbers.timeoutS,
          total_deadline_s: numbers.totalDeadlineS,
        },
        project_override: own ? { endpoint: own.otlp_endpoint, service_name: own.service_name, enabled: own.enabled } : null,
      },
    };
  }

  /** Changes a project's own export settings (only the fields given; null clears one). */
  async set(input: SetExportConfigDto): Promise<EffectiveExportConfig> {
    if (input.endpoint === undefined && input.service_name === undefined && input.enabled === undefined) {
      throw RequestError.invalidInput('give at least one of endpoint, service_name, enabled');
    }
    if ((input.enabled as boolean | null | undefined) === null) throw RequestError.invalidInput('enabled must be true or false');
    if (input.enabled === true && !this.config.aiLogOtelEnabled) throw AiLogError.exportDisabledByOperator();
    const endpoint = input.endpoint === undefined || input.endpoint === null ? input.endpoint : projectEndpoint(input.endpoint);
    if (endpoint && this.guard.enforcing) {
      try {
        await this.guard.checkUrl(new URL(endpoint));
      } catch (error) {
        if (error instanceof OutboundRefusedError) throw AiLogError.endpointRefused(error.reason);
        throw error;
      }
    }
    const serviceName = input.service_name === undefined || input.service_name === null ? input.service_name : projectServiceName(input.service_name);
    return this.db.transaction(async (m) => {
      await requireProject(m, input.project_id);
      const row = (await m.findOneBy(AiLogExportConfig, { project_id: input.project_id })) ?? {
        project_id: input.project_id,
        otlp_endpoint: null,
        service_name: null,
        enabled: true,
        updated_at: this.clock.now(),
      };
      if (endpoint !== undefined) row.otlp_endpoint = endpoint;
      if (serviceName !== undefined) row.service_name = serviceName;
      if (input.enabled !== undefined) row.enabled = input.enabled;
      row.updated_at = this.clock.now();
      await m.save(AiLogExportConfig, row);
      return this.resolveWith(row).view;
    });
  }
}

function projectEndpoint(raw: string): string {
  try {
    return checkEndpoint(raw);
  } catch (error) {
    const reason = (error as Error).message.replace(/: put them in SERVICE_AI_LOG_OTEL_HEADERS$/, '');
    if (/credentials/.test(reason)) throw AiLogError.credentialsRefused('endpoint', reason);
    throw RequestError.invalidInput(`endpoint ${reason}`);
  }
}

function projectServiceName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw RequestError.invalidInput('service_name must not be empty');
  if (redactSecrets(name) !== name || findSecret(name)) throw AiLogError.credentialsRefused('service_name', 'must not hold a secret');
  return name;
}
