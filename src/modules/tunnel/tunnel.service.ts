import { Inject, Injectable } from '@nestjs/common';
import { delimiter, join } from 'node:path';
import { accessSync, constants } from 'node:fs';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DiagnosticsLayers } from '../push/diagnostics-layers';
import { Project } from '../projects/project.entity';
import { CustomPluginDto, PluginOverrideDto } from './dto/plugin-overrides.dto';
import { ServedPlugin, ServerFrame, TUNNEL_PREFIXES } from './tunnel-frames';
import { ConnectorSnapshot, TunnelRelay } from './tunnel-relay.service';
import { BUILTIN_PLUGINS, ResolvedPlugin, TunnelSettings, TunnelSettingsService } from './tunnel-settings.service';
import { TunnelSockets } from './tunnel-sockets.service';
import { TunnelError } from './tunnel.errors';

/** A resolved plugin with what the connector reports of it. */
export interface PluginView extends ResolvedPlugin {
  served: ServedPlugin['state'] | 'not_connected' | 'not_configured_on_connector';
  tool_count: number;
}

/**
 * The tunnel's routes: status, manifest and refresh, roots, plugins and the active repository,
 * and the tunnel and connector layers of the diagnostics. Every route works on the caller's own
 * workspace; a tenant id in a path must be the caller's (404 otherwise, like an unknown one).
 */
@Injectable()
export class TunnelService implements DiagnosticsLayers {
  /** Numbers the frames whose manifest a route waits for. */
  private seq = Date.now();

  constructor(
    private readonly relay: TunnelRelay,
    private readonly sockets: TunnelSockets,
    private readonly settings: TunnelSettingsService,
    private readonly db: TenantDb,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  ownTenant(tenantId: string): string {
    const own = currentTenant().tenantId;
    if (own !== tenantId.toLowerCase()) throw TunnelError.tenantNotFound(tenantId);
    return own;
  }

  async status(tenantId: string) {
    const own = this.ownTenant(tenantId);
    const snap = await this.relay.snapshot(own);
    return {
      tenant_id: own,
      connected: snap.connected,
      on_this_instance: snap.local,
      connected_at: snap.connected_at,
      connector_version: snap.version,
      plugins: snap.plugins.map((p) => ({ prefix: p.prefix, name: p.name, state: p.state })),
      how_to_connect: snap.connected ? null : this.howToConnect(),
    };
  }

  async manifest() {
    const snap = await this.relay.snapshot(currentTenant().tenantId);
    const tools = snap.plugins.flatMap((p) =>
      p.state === 'running' ? p.tools.map((t) => ({ prefix: p.prefix, plugin: p.name, name: t.name, description: t.description ?? null })) : [],
    );
    return {
      connected: snap.connected,
      manifest_at: snap.manifest_at,
      tool_count: tools.length,
      tools,
      plugins: snap.plugins.map(({ tools: list, ...p }) => ({ ...p, tool_count: list.length })),
    };
  }

  /** Asks the connector to list its servers' tools again and waits (up to 10 s, on the instance that holds it) for the new manifest. */
  async refresh() {
    const tenantId = currentTenant().tenantId;
    const fresh = await this.sendAndAwaitManifest(tenantId, (seq) => ({ t: 'refresh', seq }));
    if (fresh === undefined) throw TunnelError.noConnector(`no connector is connected: ${this.howToConnect()}`);
    return { refreshed: fresh, ...(await this.manifest()) };
  }

  async roots() {
    const settings = await this.settings.get();
    return this.rootsView(settings, false);
  }

  async addRoot(path: string) {
    const settings = await this.settings.addRoot(path);
    return this.rootsView(settings, await this.push());
  }

  async removeRoot(path: string) {
    const settings = await this.settings.removeRoot(path);
    return this.rootsView(settings, await this.push());
  }

  async plugins() {
    const settings = await this.settings.get();
    const snap = await this.relay.snapshot(currentTenant().tenantId);
    return this.pluginsView(settings, snap);
  }

  async setOverrides(overrides: PluginOverrideDto[]) {
    const settings = await this.settings.setOverrides(overrides);
    await this.push();
    return this.pluginsView(settings, await this.relay.snapshot(currentTenant().tenantId));
  }

  async addCustom(input: CustomPluginDto) {
    const settings = await this.settings.addCustom(input);
    await this.push();
    return this.pluginsView(settings, await this.relay.snapshot(currentTenant().tenantId));
  }

  async removeCustom(name: string) {
    const settings = await this.settings.removeCustom(name);
    await this.push();
    return this.pluginsView(settings, await this.relay.snapshot(currentTenant().tenantId));
  }

  /**
   * Whether a plugin's program is there to run. Self-hosted, Baton and the tools share the
   * machine, so Baton looks on its own PATH; hosted, only the connector can tell (its report).
   */
  async check(name: string) {
    const settings = await this.settings.get();
    const plugin = this.settings.resolve(settings).find((p) => p.name === name);
    if (!plugin) throw TunnelError.notFound(`no plugin named ${name} (GET /tunnel/plugins lists them)`);
    if (!this.config.isHosted) {
      const available = plugin.command ? onPath(plugin.command) : false;
      return { name, prefix: plugin.prefix, command: plugin.command, available, checked_on: 'server' as const };
    }
    const snap = await this.relay.snapshot(currentTenant().tenantId);
    const served = snap.plugins.find((p) => p.prefix === plugin.prefix && p.name === name);
    return { name, prefix: plugin.prefix, command: plugin.command, available: served ? served.state === 'running' : null, checked_on: 'connector' as const };
  }

  async setActiveRepo(path: string) {
    const settings = await this.settings.setActiveRepo(path);
    const delivered = await this.relay.send(currentTenant().tenantId, { t: 'active_repo', path: settings.active_repo ?? path });
    return { active_repo: settings.active_repo, delivered };
  }

  /** Read-only: for each project of the workspace, what each prefix would serve it. */
  async launchMatrix(tenantId: string) {
    const own = this.ownTenant(tenantId);
    const projects = await this.db.read((m) => m.find(Project, { select: { id: true, name: true }, order: { name: 'ASC' }, take: 500 }));
    const settings = await this.settings.get();
    const snap = await this.relay.snapshot(own);
    const plugins = this.pluginsView(settings, snap).plugins;
    return {
      tenant_id: own,
      connected: snap.connected,
      prefixes: [...TUNNEL_PREFIXES],
      projects: projects.map((p) => ({
        project_id: p.id,
        name: p.name,
        launch: Object.fromEntries(plugins.map((pl) => [pl.prefix, { plugin: pl.name, enabled: pl.enabled, served: pl.served, endpoint: `/${pl.prefix}/mcp/${own}` }])),
      })),
    };
  }

  layers(tenantId: string): Record<string, unknown> {
    const link = this.sockets.get(tenantId);
    const now = Date.now();
    const age = (at: Date | null | undefined) => (at ? Math.round((now - at.getTime()) / 100) / 10 : null);
    return {
      tunnel: {
        socket_on_this_instance: Boolean(link),
        instance_id: this.relay.instanceId,
        cross_instance: this.config.cacheUrl ? 'redis_relay' : 'none',
        connected_at: link?.connectedAt.toISOString() ?? null,
        last_pong_age_seconds: age(link?.lastPongAt),
        requests_forwarded: link?.forwarded ?? 0,
        requests_failed: link?.failed ?? 0,
        requests_in_flight: link?.pending.size ?? 0,
        requests_relayed_from_this_instance: this.relay.relayed,
      },
      connector: link
        ? {
            version: link.version,
            manifest_age_seconds: age(link.manifestAt),
            roots: link.roots,
            allowed_roots: link.allowedRoots,
            plugins: link.plugins.map((p) => ({ prefix: p.prefix, name: p.name, state: p.state, tool_count: p.tools.length, error: p.error ?? null })),
          }
        : null,
    };
  }

  howToConnect(): string {
    return `run \`npx baton connect --url ${this.config.baseUrl} --root <directory>\` on the machine whose tools you want to serve`;
  }

  /** Sends the workspace's settings to its connector; true once delivered (and, on this instance, applied). */
  private async push(): Promise<boolean> {
    const frame = await this.settings.configFrame();
    return (await this.sendAndAwaitManifest(currentTenant().tenantId, (seq) => ({ ...frame, seq }))) !== undefined;
  }

  /**
   * Sends a frame to the connector and, when its socket is on this instance, waits up to 10 s for
   * the manifest it sends back: true when it came, false when not waited for or late, undefined
   * when no connector is connected.
   */
  private async sendAndAwaitManifest(tenantId: string, frame: (seq: number) => ServerFrame): Promise<boolean | undefined> {
    const seq = ++this.seq;
    let stop = () => undefined as unknown;
    let timer: NodeJS.Timeout | undefined;
    const changed = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), 10_000);
      stop = this.sockets.onChange((id, link) => {
        if (id === tenantId && link && link.manifestSeq >= seq) resolve(true);
      });
    });
    try {
      if (!(await this.relay.send(tenantId, frame(seq)))) return undefined;
      return this.sockets.get(tenantId) ? await changed : false;
    } finally {
      clearTimeout(timer);
      stop();
    }
  }

  private async rootsView(settings: TunnelSettings, delivered: boolean) {
    const snap = await this.relay.snapshot(currentTenant().tenantId);
    return {
      roots: settings.filesystem_roots,
      served_roots: snap.roots,
      allowed_roots: snap.allowed_roots,
      connected: snap.connected,
      delivered,
    };
  }

  private pluginsView(settings: TunnelSettings, snap: ConnectorSnapshot) {
    const plugins: PluginView[] = this.settings.resolve(settings).map((p) => {
      const served = snap.plugins.find((s) => s.prefix === p.prefix);
      return {
        ...p,
        served: !snap.connected ? 'not_connected' : served ? served.state : 'not_configured_on_connector',
        tool_count: served?.tools.length ?? 0,
      };
    });
    return { plugins, overrides: settings.overrides, custom: settings.custom_plugins, builtin: Object.values(BUILTIN_PLUGINS).map((b) => b.name) };
  }
}

function onPath(command: string): boolean {
  if (command.includes('/')) return false;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}
