import { Injectable } from '@nestjs/common';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { CustomPluginDto, PluginOverrideDto } from './dto/plugin-overrides.dto';
import { TUNNEL_PREFIXES, TunnelConfigFrame, TunnelPrefix } from './tunnel-frames';
import { TunnelSettingsRow } from './tunnel-settings.entity';
import { TunnelError } from './tunnel.errors';

const SINGLETON = 'singleton';
export const MAX_ROOTS = 32;
export const MAX_CUSTOM_PLUGINS = 32;

/** The tool servers Baton knows how to start: the connector launches these itself, nothing else comes from Baton. */
export const BUILTIN_PLUGINS: Partial<Record<TunnelPrefix, { name: string; package: string; command: string }>> = {
  fs: { name: 'filesystem', package: '@modelcontextprotocol/server-filesystem', command: 'mcp-server-filesystem' },
};

export interface CustomPlugin {
  name: string;
  prefix: TunnelPrefix;
  command: string | null;
}

export interface TunnelSettings {
  filesystem_roots: string[];
  overrides: { prefix: TunnelPrefix; enabled: boolean }[];
  custom_plugins: CustomPlugin[];
  active_repo: string | null;
  updated_at: string | null;
}

/** One prefix as the workspace resolves it: which plugin, from where, and whether it is wanted. */
export interface ResolvedPlugin {
  prefix: TunnelPrefix;
  name: string | null;
  source: 'builtin' | 'custom' | 'none';
  command: string | null;
  enabled: boolean;
}

/**
 * The workspace's wishes for its connector, kept in its own storage: which filesystem roots to
 * serve, which plugins are on, custom plugins and the active repository. These are wishes: the
 * connector serves a root only inside the roots the person allowed when starting it, and starts
 * only the servers it was told to start on its own command line.
 */
@Injectable()
export class TunnelSettingsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  async get(): Promise<TunnelSettings> {
    const row = await this.db.read((m) => m.findOneBy(TunnelSettingsRow, { id: SINGLETON }));
    return view(row);
  }

  async addRoot(path: string): Promise<TunnelSettings> {
    return this.change((s) => {
      const root = normalRoot(path);
      if (s.filesystem_roots.includes(root)) return;
      if (s.filesystem_roots.length >= MAX_ROOTS) throw TunnelError.invalid(`at most ${MAX_ROOTS} filesystem roots may be served`);
      s.filesystem_roots.push(root);
    });
  }

  async removeRoot(path: string): Promise<TunnelSettings> {
    return this.change((s) => {
      const root = normalRoot(path);
      if (!s.filesystem_roots.includes(root)) throw TunnelError.notFound(`no served filesystem root ${root}`);
      s.filesystem_roots = s.filesystem_roots.filter((r) => r !== root);
    });
  }

  async setOverrides(overrides: PluginOverrideDto[]): Promise<TunnelSettings> {
    const prefixes = overrides.map((o) => o.prefix);
    const twice = prefixes.find((p, i) => prefixes.indexOf(p) !== i);
    if (twice) throw TunnelError.invalid(`overrides names the prefix ${twice} twice`);
    return this.change((s) => void (s.overrides = overrides.map((o) => ({ prefix: o.prefix, enabled: o.enabled }))));
  }

  async addCustom(input: CustomPluginDto): Promise<TunnelSettings> {
    return this.change((s) => {
      if (Object.values(BUILTIN_PLUGINS).some((b) => b.name === input.name)) throw TunnelError.conflict(`${input.name} is a built-in plugin`);
      if (s.custom_plugins.some((c) => c.name === input.name)) throw TunnelError.conflict(`a custom plugin named ${input.name} exists already`);
      if (s.custom_plugins.length >= MAX_CUSTOM_PLUGINS) throw TunnelError.invalid(`at most ${MAX_CUSTOM_PLUGINS} custom plugins`);
      s.custom_plugins.push({ name: input.name, prefix: input.prefix, command: input.command ?? null });
    });
  }

  async removeCustom(name: string): Promise<TunnelSettings> {
    return this.change((s) => {
      if (!s.custom_plugins.some((c) => c.name === name)) throw TunnelError.notFound(`no custom plugin named ${name}`);
      s.custom_plugins = s.custom_plugins.filter((c) => c.name !== name);
    });
  }

  async setActiveRepo(path: string): Promise<TunnelSettings> {
    return this.change((s) => void (s.active_repo = normalRoot(path)));
  }

  resolve(settings: TunnelSettings): ResolvedPlugin[] {
    return TUNNEL_PREFIXES.map((prefix) => {
      const custom = settings.custom_plugins.find((c) => c.prefix === prefix);
      const builtin = BUILTIN_PLUGINS[prefix];
      const enabled = settings.overrides.find((o) => o.prefix === prefix)?.enabled ?? true;
      if (custom) return { prefix, name: custom.name, source: 'custom', command: custom.command, enabled };
      if (builtin) return { prefix, name: builtin.name, source: 'builtin', command: builtin.command, enabled };
      return { prefix, name: null, source: 'none', command: null, enabled };
    });
  }

  /** What the connector is told when it joins and after each change. */
  async configFrame(): Promise<TunnelConfigFrame> {
    const settings = await this.get();
    return {
      t: 'config',
      roots: settings.filesystem_roots,
      plugins: this.resolve(settings).map((p) => ({ prefix: p.prefix, name: p.name ?? p.prefix, enabled: p.enabled })),
    };
  }

  private async change(edit: (s: TunnelSettings) => void): Promise<TunnelSettings> {
    return this.db.transaction(async (m) => {
      const settings = view(await m.findOneBy(TunnelSettingsRow, { id: SINGLETON }));
      edit(settings);
      const now = this.clock.now();
      await m.upsert(
        TunnelSettingsRow,
        {
          id: SINGLETON,
          filesystem_roots: JSON.stringify(settings.filesystem_roots),
          plugin_overrides: JSON.stringify(settings.overrides),
          custom_plugins: JSON.stringify(settings.custom_plugins),
          active_repo: settings.active_repo,
          updated_at: now,
        },
        ['id'],
      );
      return { ...settings, updated_at: now.toISOString() };
    });
  }
}

function view(row: TunnelSettingsRow | null): TunnelSettings {
  return {
    filesystem_roots: row ? (JSON.parse(row.filesystem_roots) as string[]) : [],
    overrides: row ? (JSON.parse(row.plugin_overrides) as TunnelSettings['overrides']) : [],
    custom_plugins: row ? (JSON.parse(row.custom_plugins) as CustomPlugin[]) : [],
    active_repo: row?.active_repo ?? null,
    updated_at: row ? row.updated_at.toISOString() : null,
  };
}

/** One spelling per directory: no trailing separator (except the root itself). */
function normalRoot(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return trimmed === '' ? '/' : /^[A-Za-z]:$/.test(trimmed) ? `${trimmed}\\` : trimmed;
}
