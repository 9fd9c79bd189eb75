// First: every module loaded after this one is compiled once and then read from Node's compile cache.
import { keepCompiledModules } from './common/lifecycle/compile-cache';
import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { createApp } from './app.factory';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import type * as DatabaseWait from './database-wait';
import { listenApp } from './common/lifecycle/listen';
import { onExitRequest } from './common/lifecycle/process-exit';
import { closeServing, ShutdownDrain } from './common/lifecycle/shutdown-drain';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  let app: INestApplication;
  if (config.dbUrl) {
    // Postgres may come up after Baton (a cluster starting both at once): wait for it rather than exit.
    // Loaded only here, with pg: a self-hosted instance on SQLite never loads pg.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on this path only (see above)
    const { bootWhenDatabaseAnswers } = require('./database-wait') as typeof DatabaseWait;
    app = await bootWhenDatabaseAnswers(config, () => boot(config));
  } else {
    app = await createApp(config, { shutdownHooks: false });
    await listenApp(app, config.port, config.host);
  }
  // SIGTERM, SIGINT, POST /admin/restart and /admin/shutdown all stop the same way (stopInstance).
  const stop = (code: number) => stopInstance(app, config.drainSeconds, code);
  onExitRequest(stop);
  process.once('SIGTERM', () => void stop(0));
  process.once('SIGINT', () => void stop(0));
  // Off the start's path: the first /health does not wait for these writes.
  setImmediate(keepCompiledModules);
  const url = await app.getUrl();
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'Baton is listening', url, mode: config.mode, database: config.databaseType }) + '\n');
}

/**
 * Stops without dropping work: readiness turns 503 and waits, streams and WebSockets end at once
 * (ShutdownDrain); the server takes no new connection while requests in flight finish, for at most
 * `drainSeconds`, after which the connections still open are cut; only then are the pools closed.
 */
async function stopInstance(app: INestApplication, drainSeconds: number, code: number): Promise<void> {
  app.get(ShutdownDrain).begin();
  const server = app.getHttpServer() as Server;
  const cut = setTimeout(() => server.closeAllConnections(), drainSeconds * 1000);
  await closeServing(server, () => new Promise((resolve) => server.close(() => resolve())));
  clearTimeout(cut);
  await app.close();
  process.exit(code);
}

/** Builds the app and runs its start-up work (migrations); a half-started app is closed again. */
async function boot(config: AppConfig): Promise<INestApplication> {
  const app = await createApp(config, { shutdownHooks: false });
  try {
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

main().catch((error) => {
  if (error instanceof Error && error.name === 'DatabaseRefusedError') {
    process.stderr.write(`${error.message}\n`);
    process.exit(78); // EX_CONFIG: a setting (or the database it names) is wrong, not a bug
  }
  process.stderr.write(`Baton failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
