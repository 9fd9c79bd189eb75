import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { createApp } from '../../src/app.factory';
import { closeServing, ShutdownDrain } from '../../src/common/lifecycle/shutdown-drain';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { TenantProvisioning } from '../../src/modules/tenants/tenant-provisioning.service';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Every log line written so far. */
  logs: string[];
  close(): Promise<void>;
}

/**
 * Starts the real application in this process on a free port (or on SERVICE_PORT when `env` sets
 * it: a suite whose APP_URL must name the port, such as provider callbacks). `env` is the
 * environment it sees (nothing is read from the test runner's environment).
 */
export async function startApp(env: Record<string, string | undefined> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'baton-test-'));
  const config = loadConfig({
    SERVICE_DATA_DIR: dataDir,
    SERVICE_PORT: '0',
    SERVICE_LOG_LEVEL: 'warn',
    ...env,
  });
  const logs: string[] = [];
  const app = await createApp(config, { logWrite: (line) => logs.push(line) });
  await app.listen(config.port, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    config,
    url: `http://127.0.0.1:${address.port}`,
    logs,
    async close() {
      // As the real process stops (src/main.ts): waits answer, streams and sockets end, so nothing left open holds the close.
      app.get(ShutdownDrain).begin();
      await closeServing(app.getHttpServer() as Server, () => app.close());
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Environment of a hosted instance on the given database. APP_URL matches the test host so MCP's Host check passes.
 * Every suite's client is 127.0.0.1 and many present refused tokens on purpose, so the refused-credential limit is
 * out of their way; test/auth-failures.e2e-spec.ts sets it.
 */
export function hostedEnv(dbUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SERVICE_MODE: 'hosted',
    SERVICE_DB_URL: dbUrl,
    APP_URL: 'http://127.0.0.1',
    SERVICE_TOKEN_CACHE_SECONDS: '0',
    SERVICE_AUTH_FAILURE_LIMIT: '1000000',
    // No tenants made in advance: suites count schemas and tenants exactly; the spares suite turns them on.
    SERVICE_TENANT_SPARES: '0',
    ...extra,
  };
}

/** Provisions a tenant through the running app's control plane. */
export async function provisionTenant(testApp: TestApp, name: string): Promise<{ tenant_id: string; token: string }> {
  return testApp.app.get(TenantProvisioning).provision(name);
}
