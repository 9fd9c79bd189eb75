import 'reflect-metadata';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/app-config';

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
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  const url = await app.getUrl();
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'Baton is listening', url, mode: config.mode, database: config.databaseType }) + '\n');
}

main().catch((error) => {
  process.stderr.write(`Baton failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
