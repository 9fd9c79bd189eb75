import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createOtlpSender, ExportPassResult, runExportPass } from '../../../libs/otel-export/export-pass';
import type { OtlpLibrary } from '../../../libs/otel-export/loader';
import type { LookupFunction } from 'node:net';
import { OutboundGuard, OutboundRefusedError, pinnedLookup } from '../../../libs/outbound-guard';
import { currentTenant, extendRequestDeadline, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { HTTP_OUTBOUND_GUARD } from '../../common/outbound/outbound-guards';
import { requireProject } from '../projects/require-project.util';
import { AiLogExportConfigService, EffectiveExportConfig, ResolvedExport, SINK_HINT_VALUE } from './ai-log-export-config.service';
import { AiLogExportStateStore, ExportScope, ExportStateView, scopeOf } from './ai-log-export-state.store';
import { toExportRecord } from './ai-log-otel-record.util';
import { AiLogRecorder } from './ai-log-recorder.service';
import { OtlpLibraryLoader } from './otlp-library.loader';

export type ExportStatus = 'ok' | 'degraded' | 'disabled' | 'unavailable' | 'not_configured' | 'busy' | 'refused';

/** What export_ai_log_otel answers. */
export interface OtelExportOutcome extends Partial<Omit<ExportPassResult, 'status' | 'reason'>> {
  project_id: string | null;
  status: ExportStatus;
  /** Why: the degraded reason (deadline, chunk_failed, claim_lost), or why nothing was sent. */
  reason: string | null;
  endpoint: string | null;
  /** Everything up to this seq has been accepted by the endpoint. */
  watermark_seq: number;
  /** Events of the scope still waiting after this pass. */
  pending: number;
  /** True when another pass would send more. */
  more: boolean;
  at: string;
}

export interface ExportStatusView {
  project_id: string | null;
  config: EffectiveExportConfig;
  state: ExportStateView & { pending: number };
}

/** The lease outlives the longest pass by this much, so a crashed pass frees the scope soon after. */
const LEASE_MARGIN_MS = 30_000;
const SCOPE_NAME = 'baton.ai-log';

/** What a pass that the database failed mid-way reports. */
const STORAGE_FAILED_PASS: ExportPassResult = {
  status: 'degraded',
  reason: null,
  fetched: 0,
  sent: 0,
  chunks_sent: 0,
  attempts: 0,
  retries: 0,
  retry_delays_ms: [],
  last_error: 'storage error',
  last_sent_seq: null,
  duration_ms: 0,
};

/** Where a pass sends: the resolved settings, the endpoint's checked address (a project's own), and the OTLP library. */
interface PassTarget {
  resolved: ResolvedExport;
  view: EffectiveExportConfig;
  lookup: LookupFunction | undefined;
  library: OtlpLibrary;
}

/** A pass's result and the watermark it reached. */
interface SentPass {
  pass: ExportPassResult;
  storageFailure: boolean;
  watermark: number;
}

/**
 * On-demand OTLP export of the AI-log (service spec §6): one pass per call,
 * resuming from the scope's durable watermark. Nothing is loaded and nothing
 * is sent unless the operator switched export on, the project did not switch
 * it off, and an endpoint is configured.
 */
@Injectable()
export class AiLogOtelExportService {
  private readonly logger = new Logger('ai-log');

  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly recorder: AiLogRecorder,
    private readonly settings: AiLogExportConfigService,
    private readonly state: AiLogExportStateStore,
    private readonly loader: OtlpLibraryLoader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(HTTP_OUTBOUND_GUARD) private readonly guard: OutboundGuard,
  ) {}

  /** One export pass for a project (or, without one, for the events that belong to no project). */
  async exportPass(projectId: string | null): Promise<OtelExportOutcome> {
    const scope = scopeOf(projectId);
    await this.recorder.flush();
    const target = await this.target(scope, projectId);
    if ('skipped' in target) return target.skipped;

    const { resolved, view } = target;
    const leaseId = randomUUID();
    const now = this.clock.now();
    const leaseUntil = new Date(now.getTime() + resolved.numbers.totalDeadlineS * 1000 + resolved.numbers.timeoutS * 1000 + LEASE_MARGIN_MS);
    // A pass has its own deadline; the request that runs it waits for it, and then for the answer.
    extendRequestDeadline(Date.now() + (resolved.numbers.totalDeadlineS + resolved.numbers.timeoutS) * 1000 + LEASE_MARGIN_MS);
    const watermark = await this.state.claim(scope, leaseId, now, leaseUntil);
    if (watermark === null) return this.without(scope, 'busy', 'another export pass of this scope is running', view.endpoint, false);

    const sent = await this.send(scope, leaseId, watermark, target);
    return this.finish(scope, leaseId, view.endpoint, sent);
  }

  /**
   * Where this pass would send, or why it sends nothing: export switched off
   * or not configured, a project endpoint the outbound guard refuses, or the
   * OTLP library missing.
   */
  private async target(scope: ExportScope, projectId: string | null): Promise<PassTarget | { skipped: OtelExportOutcome }> {
    const resolved = await this.db.transaction(async (m) => {
      if (projectId) await requireProject(m, projectId);
      return this.settings.resolve(m, projectId);
    });
    const { view } = resolved;
    if (!view.enabled) {
      const status = view.disabled_reason === 'no_endpoint' ? 'not_configured' : 'disabled';
      const reason = view.disabled_reason === 'operator' ? 'disabled by the operator' : view.disabled_reason === 'project' ? 'disabled for this project' : 'no endpoint configured';
      return { skipped: await this.without(scope, status, reason, null) };
    }
    // A project's own endpoint passes the outbound guard and is reached at the checked address; the operator's is trusted as configured.
    let lookup: LookupFunction | undefined;
    if (view.endpoint_source === 'project') {
      try {
        lookup = pinnedLookup(await this.guard.checkUrl(new URL(view.endpoint as string)));
      } catch (error) {
        if (error instanceof OutboundRefusedError) return { skipped: await this.without(scope, 'refused', error.reason, view.endpoint) };
        throw error;
      }
    }
    const loaded = this.loader.load();
    if (!loaded.available) return { skipped: await this.without(scope, 'unavailable', loaded.reason, view.endpoint) };
    return { resolved, view, lookup, library: loaded.library };
  }

  /** Runs the pass from `watermark` under the lease; a storage failure mid-pass is a degraded pass, not an error. */
  private async send(scope: ExportScope, leaseId: string, watermark: number, { resolved, view, lookup, library }: PassTarget): Promise<SentPass> {
    const tenantId = currentTenant().tenantId;
    const sender = createOtlpSender(library, {
      endpoint: view.endpoint as string,
      headers: resolved.headers,
      resource: { 'service.name': view.service_name, ...(view.sink_hint ? { 'service.otel_sink_hint': SINK_HINT_VALUE } : {}) },
      scope: { name: SCOPE_NAME, version: this.config.version },
      lookup,
    });
    const sent: SentPass = { pass: STORAGE_FAILED_PASS, storageFailure: false, watermark };
    try {
      sent.pass = await runExportPass(
        {
          read: async (limit) => (await this.state.readAfter(scope, watermark, limit)).map((row) => ({ seq: Number(row.seq), record: toExportRecord(row, tenantId) })),
          advance: async (seq, count) => {
            const ok = await this.state.advance(scope, leaseId, seq, count);
            if (ok) sent.watermark = seq;
            return ok;
          },
        },
        sender,
        resolved.numbers,
      );
    } catch (error) {
      // A database failure mid-pass: what was accepted is already behind the watermark.
      this.logger.error({ msg: 'AI-log export pass failed', error: (error as Error).message });
      sent.storageFailure = true;
      sent.pass = { ...STORAGE_FAILED_PASS, retry_delays_ms: [] };
    } finally {
      sender.close();
    }
    return sent;
  }

  /** Counts what is left, records the outcome and lets go of the lease. */
  private async finish(scope: ExportScope, leaseId: string, endpoint: string | null, { pass, storageFailure, watermark }: SentPass): Promise<OtelExportOutcome> {
    const pending = await this.db.transaction((m) => this.state.pending(m, scope, watermark));
    const outcome: OtelExportOutcome = {
      project_id: scope.projectId,
      ...pass,
      status: pass.status,
      reason: storageFailure ? 'storage_error' : pass.reason,
      endpoint,
      watermark_seq: watermark,
      pending,
      more: pending > 0,
      at: this.clock.now().toISOString(),
    };
    await this.state.release(scope, leaseId, this.clock.now(), outcome.status, { ...outcome });
    if (pass.status === 'degraded') this.logger.warn({ msg: 'AI-log export pass degraded', reason: pass.reason, sent: pass.sent, last_error: pass.last_error });
    return outcome;
  }

  /** Effective configuration and the last attempt's outcome, read from memory and the database only. */
  async status(projectId: string | null): Promise<ExportStatusView> {
    const scope = scopeOf(projectId);
    await this.recorder.flush();
    return this.db.transaction(async (m) => {
      if (projectId) await requireProject(m, projectId);
      const { view } = await this.settings.resolve(m, projectId);
      return { project_id: scope.projectId, config: view, state: await this.state.view(m, scope, this.clock.now()) };
    });
  }

  /** An attempt that sent nothing: recorded as the last outcome (except `busy`, which belongs to the running pass). */
  private async without(scope: ExportScope, status: ExportStatus, reason: string, endpoint: string | null, note = true): Promise<OtelExportOutcome> {
    const pendingAndWatermark = await this.db.transaction(async (m) => {
      const view = await this.state.view(m, scope, this.clock.now());
      return { watermark: view.watermark_seq, pending: view.pending };
    });
    const outcome: OtelExportOutcome = {
      project_id: scope.projectId,
      status,
      reason,
      endpoint,
      sent: 0,
      watermark_seq: pendingAndWatermark.watermark,
      pending: pendingAndWatermark.pending,
      more: false,
      at: this.clock.now().toISOString(),
    };
    if (note) await this.state.note(scope, this.clock.now(), status, { ...outcome });
    return outcome;
  }
}
