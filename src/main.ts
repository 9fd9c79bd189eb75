import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { createApp } from './app.factory';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import type * as DatabaseWait from './database-wait';

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
    app = await createApp(config);
    await app.listen(config.port, config.host);
  }
  const url = await app.getUrl();
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'Baton is listening', url, mode: config.mode, database: config.databaseType }) + '\n');
}

/** Builds the app and runs its start-up work (migrations); a half-started app is closed again. */
async function boot(config: AppConfig): Promise<INestApplication> {
  const app = await createApp(config);
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
