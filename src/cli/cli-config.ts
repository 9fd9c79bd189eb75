import { AppConfig, ConfigError, loadConfig } from '../config/app-config';

/** The configuration of a command-line run; a bad one is told on stderr and ends it with status 78 (EX_CONFIG). */
export function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
}
