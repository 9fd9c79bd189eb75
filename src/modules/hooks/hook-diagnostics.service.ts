import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { In } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { PublicUrl } from '../../common/public-url';
import { requireProject } from '../projects/require-project.util';
import { HookEvent, HookEventName, HookOutcome } from './hook-event.entity';
import { HOOK_EVENTS_KEPT, HOOK_EVENTS_SHOWN, HOOK_REACHING_WINDOW_MS } from './hooks.constants';

export interface HookCall {
  event: HookEventName;
  outcome: HookOutcome;
  detail: string;
  project_id: string | null;
  session_id: string | null;
  assistant_session_id: string | null;
  source: string | null;
  at: string;
}

export type HookRecord = Omit<HookCall, 'at'>;

/** What the hooks did: recorded on every call, read by GET /hooks/diagnostics. */
@Injectable()
export class HookDiagnosticsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly publicUrl: PublicUrl,
  ) {}

  /** Records one call in its own transaction (so a refused call is recorded too), keeping the newest HOOK_EVENTS_KEPT. */
  async record(call: HookRecord): Promise<void> {
    await this.db.transaction(async (m) => {
      await m.insert(HookEvent, { id: randomUUID(), ...call, detail: call.detail.slice(0, 1000), created_at: this.clock.now() });
      const old = await m.find(HookEvent, { select: { id: true }, order: { created_at: 'DESC', id: 'DESC' }, skip: HOOK_EVENTS_KEPT, take: 500 });
      if (old.length > 0) await m.delete(HookEvent, { id: In(old.map((e) => e.id)) });
    });
  }

  async diagnostics(projectId?: string) {
    const events = await this.db.transaction(async (m) => {
      if (projectId) await requireProject(m, projectId);
      return m.find(HookEvent, { where: projectId ? { project_id: projectId } : {}, order: { created_at: 'DESC', id: 'DESC' }, take: HOOK_EVENTS_KEPT });
    });
    const calls = events.map(toCall);
    const last = events[0];
    const reaching = last !== undefined && this.clock.now().getTime() - last.created_at.getTime() < HOOK_REACHING_WINDOW_MS;
    return {
      status: !last ? ('never' as const) : last.outcome === 'error' ? ('failing' as const) : reaching ? ('ok' as const) : ('silent' as const),
      reaching,
      last_received_at: last ? last.created_at.toISOString() : null,
      hooks: {
        'session-start': summary(calls.filter((c) => c.event === 'session-start')),
        stop: summary(calls.filter((c) => c.event === 'stop')),
      },
      recent: calls.slice(0, HOOK_EVENTS_SHOWN),
      endpoints: {
        session_start: this.publicUrl.to('/hooks/session-start'),
        stop: this.publicUrl.to('/hooks/stop'),
      },
      help: 'status never: no hook call has reached Baton (check the hook command and URL); failing: the last call was refused (see recent[0].detail); silent: no call in 24 hours. The configuration to copy is in docs/hooks.md.',
    };
  }
}

function toCall(e: HookEvent): HookCall {
  return {
    event: e.event,
    outcome: e.outcome,
    detail: e.detail,
    project_id: e.project_id,
    session_id: e.session_id,
    assistant_session_id: e.assistant_session_id,
    source: e.source,
    at: e.created_at.toISOString(),
  };
}

function summary(calls: HookCall[]) {
  if (calls.length === 0) return null;
  return {
    last_at: calls[0].at,
    last_outcome: calls[0].outcome,
    last_detail: calls[0].detail,
    calls: calls.length,
    errors: calls.filter((c) => c.outcome === 'error').length,
  };
}
