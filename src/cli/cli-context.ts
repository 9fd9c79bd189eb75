import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig } from '../config/app-config';
import { configOrExit } from './cli-config';

/**
 * Boots the application without HTTP for a command-line task. Logs go to
 * stderr so that stdout carries only the command's result.
 */
export async function withCliContext(task: (app: INestApplicationContext, config: AppConfig) => Promise<void>): Promise<void> {
  const config = configOrExit();
  const logger = new JsonLogger('warn', (line) => process.stderr.write(line + '\n'));
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger });
  try {
    await task(app, config);
  } finally {
    await app.close();
  }
}

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
