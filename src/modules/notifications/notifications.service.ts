import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { OutboundGuard, OutboundRefusedError } from '../../../libs/outbound-guard';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { dashboardPages } from '../../common/dashboard-links';
import { PublicUrl } from '../../common/public-url';
import { RequestError } from '../../common/errors/request-error';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { HTTP_OUTBOUND_GUARD } from '../../common/outbound/outbound-guards';
import { requireProject } from '../projects/require-project.util';
import { UpdateNotifySettingsDto } from './dto/update-notify-settings.dto';
import { EmailOutcome, EmailSender } from './email.sender';
import { notificationEmail } from './templates/notification.email';
import { NotificationMessage, ntfyHeaders } from './notification.message';
import { NotificationError } from './notifications.errors';
import { NotifySettings } from './notify-settings.entity';
import { WorkspaceNotifySettings } from './workspace-notify-settings.entity';
import { DeliveryOutcome, postJson } from './outbound-webhook';

export interface NotifySettingsView {
  project_id: string;
  notify_url: string | null;
  notify_email: string | null;
}

export interface NotifyResult {
  url: DeliveryOutcome | 'not_configured';
  email: EmailOutcome | 'not_configured';
}

/**
 * Where a project's notifications go, and sending them: a JSON POST to the
 * notify URL and/or an e-mail to the notify address. Sending never blocks or
 * fails the request that caused it (`dispatch` runs in the background with
 * deadlines and bounded retries). In hosted mode a notify URL passes the
 * outbound guard: checked when it is saved and again before every delivery,
 * which connects to the checked address (`SERVICE_OUTBOUND_ALLOWED_HOSTS`
 * permits internal ones).
 */
@Injectable()
export class NotificationsService implements OnApplicationShutdown {
  private readonly logger = new Logger('notifications');
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly email: EmailSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(HTTP_OUTBOUND_GUARD) private readonly guard: OutboundGuard,
    private readonly publicUrl: PublicUrl,
  ) {}

  async getSettings(projectId: string): Promise<NotifySettingsView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return toView(projectId, await m.findOneBy(NotifySettings, { project_id: projectId }));
    });
  }

  async updateSettings(projectId: string, input: UpdateNotifySettingsDto): Promise<NotifySettingsView> {
    const url = input.notify_url === undefined ? undefined : input.notify_url === null || input.notify_url.trim() === '' ? null : await this.checkUrl(input.notify_url.trim());
    const email = input.notify_email === undefined ? undefined : input.notify_email;
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const current = await m.findOneBy(NotifySettings, { project_id: projectId });
      const next: NotifySettings = {
        project_id: projectId,
        notify_url: url === undefined ? (current?.notify_url ?? null) : url,
        notify_email: email === undefined ? (current?.notify_email ?? null) : email,
        updated_at: this.clock.now(),
      };
      await m.upsert(NotifySettings, next, ['project_id']);
      return toView(projectId, next);
    });
  }

  /** GET /settings/notifications: the workspace's default targets, for a project that leaves a channel unset. */
  async getWorkspaceDefaults(): Promise<WorkspaceNotifyView> {
    return workspaceView(await this.db.read((m) => m.findOneBy(WorkspaceNotifySettings, { id: WORKSPACE_ROW })));
  }

  /** PATCH /settings/notifications: only the fields given change; null clears one. */
  async updateWorkspaceDefaults(input: UpdateNotifySettingsDto): Promise<WorkspaceNotifyView> {
    const url = input.notify_url === undefined ? undefined : input.notify_url === null || input.notify_url.trim() === '' ? null : await this.checkUrl(input.notify_url.trim());
    return this.db.transaction(async (m) => {
      const current = await m.findOneBy(WorkspaceNotifySettings, { id: WORKSPACE_ROW });
      const next: WorkspaceNotifySettings = {
        id: WORKSPACE_ROW,
        notify_url: url === undefined ? (current?.notify_url ?? null) : url,
        notify_email: input.notify_email === undefined ? (current?.notify_email ?? null) : input.notify_email,
        updated_at: this.clock.now(),
      };
      await m.upsert(WorkspaceNotifySettings, next, ['id']);
      return workspaceView(next);
    });
  }

  /** Where a project's notifications go: its own targets, each unset channel falling back to the workspace's default. */
  private async targets(projectId: string): Promise<NotifySettingsView> {
    const [own, defaults] = await Promise.all([this.getSettings(projectId), this.getWorkspaceDefaults()]);
    return { project_id: projectId, notify_url: own.notify_url ?? defaults.notify_url, notify_email: own.notify_email ?? defaults.notify_email };
  }

  /** POST /projects/{id}/notify/test: sends now and says what happened to each channel. */
  async sendTest(projectId: string): Promise<NotifyResult> {
    const settings = await this.targets(projectId);
    return this.deliver(settings, {
      title: 'Baton test notification',
      body: `Notifications of this project reach you.\n${this.publicUrl.to(dashboardPages.settings(projectId))}`,
      event: 'notify_test',
      source: 'baton',
      project_id: projectId,
    });
  }

  /** Sends `message` to the project's targets in the background; the caller does not wait. */
  dispatch(projectId: string, message: NotificationMessage, priority: 'default' | 'high' | 'urgent' = 'default'): void {
    const work = (async () => {
      const settings = await this.targets(projectId);
      const result = await this.deliver(settings, message, priority);
      if (result.url === 'failed' || result.url === 'refused' || result.email === 'failed') {
        this.logger.warn({ msg: 'notification not delivered', project_id: projectId, event: message.event, url: result.url, email: result.email });
      }
    })().catch((error: Error) => this.logger.error({ msg: 'notification failed', project_id: projectId, error: error.message }));
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Posts an operator alert to `url` (operator configuration: not subject to the tenant target check). */
  async postOperatorAlert(url: string, message: NotificationMessage): Promise<DeliveryOutcome> {
    const result = await postJson(url, message, { timeoutMs: this.config.notifyTimeoutMs, headers: ntfyHeaders(message, 'urgent') });
    return result.outcome;
  }

  async onApplicationShutdown() {
    await Promise.allSettled([...this.inFlight]);
  }

  private async deliver(settings: NotifySettingsView, message: NotificationMessage, priority: 'default' | 'high' | 'urgent' = 'default'): Promise<NotifyResult> {
    const [url, email] = await Promise.all([
      settings.notify_url
        ? postJson(settings.notify_url, message, {
            guard: this.guard,
            timeoutMs: this.config.notifyTimeoutMs,
            headers: ntfyHeaders(message, priority),
          }).then((r) => r.outcome)
        : Promise.resolve('not_configured' as const),
      settings.notify_email ? this.email.send(notificationEmail(settings.notify_email, message)) : Promise.resolve('not_configured' as const),
    ]);
    return { url, email };
  }

  private async checkUrl(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw RequestError.invalidInput('notify_url must be an absolute http(s) URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw RequestError.invalidInput('notify_url must be an http(s) URL');
    if (url.username || url.password) throw RequestError.invalidInput('notify_url must not carry credentials');
    if (this.guard.enforcing) {
      try {
        await this.guard.checkUrl(url);
      } catch (error) {
        if (error instanceof OutboundRefusedError) throw NotificationError.targetRefused(error.reason);
        throw error;
      }
    }
    return url.toString();
  }
}

const WORKSPACE_ROW = 'singleton';

export interface WorkspaceNotifyView {
  notify_url: string | null;
  notify_email: string | null;
  /** null until first changed. */
  updated_at: string | null;
}

function workspaceView(row: WorkspaceNotifySettings | null): WorkspaceNotifyView {
  return { notify_url: row?.notify_url ?? null, notify_email: row?.notify_email ?? null, updated_at: row ? new Date(row.updated_at).toISOString() : null };
}

function toView(projectId: string, row: NotifySettings | null): NotifySettingsView {
  return { project_id: projectId, notify_url: row?.notify_url ?? null, notify_email: row?.notify_email ?? null };
}
