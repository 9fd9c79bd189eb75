import { Inject, Injectable } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { BUILTIN_PLUGINS } from './tunnel-settings.service';
import { TunnelError } from './tunnel.errors';

const run = promisify(execFile);
const INSTALL_TIMEOUT_MS = 180_000;

/**
 * POST /tunnel/plugins/install: self-hosted only, and only a built-in plugin's own npm package,
 * installed with npm (no shell, no command from the request) under SERVICE_DATA_DIR/plugins.
 * Hosted Baton never runs a command for a workspace.
 */
@Injectable()
export class TunnelInstallService {
  private running = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async install(name: string) {
    if (this.config.isHosted) throw TunnelError.selfHostedOnly('installing a plugin');
    const plugin = Object.values(BUILTIN_PLUGINS).find((p) => p.name === name);
    if (!plugin) throw TunnelError.notFound(`no built-in plugin named ${name}: install a custom plugin's program yourself, then add it with POST /tunnel/plugins/custom`);
    if (this.running) throw TunnelError.conflict('another plugin install is running: try again when it ends');
    this.running = true;
    const prefix = join(this.config.dataDir, 'plugins');
    try {
      await run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', plugin.package], { timeout: INSTALL_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 });
      return { name, package: plugin.package, installed: true, location: prefix };
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      throw TunnelError.upstream(
        `npm could not install ${plugin.package}: ${String(stderr ?? (error as Error).message)
          .trim()
          .split('\n')
          .slice(-3)
          .join(' ')
          .slice(0, 400)}`,
      );
    } finally {
      this.running = false;
    }
  }
}
