import { runWithTenant } from '../../libs/tenancy';
import { AiLogCaptureService } from '../../src/modules/ai-log/ai-log-capture.service';
import { TenantResolver } from '../../src/modules/tenants/tenant-resolver.service';
import { TestApp } from './test-app';

/**
 * Records `count` tool calls of a project the way the MCP server reports them
 * (same capture path, without the network round trips). They are written the
 * way real calls' events are, but nothing waits for them here; every reader of
 * the log flushes first, so it sees them.
 */
export async function seedToolCalls(testApp: TestApp, token: string | undefined, projectId: string | null, count: number, args: Record<string, unknown> = {}) {
  const tenant = await testApp.app.get(TenantResolver).resolve(token ? `Bearer ${token}` : undefined);
  const capture = testApp.app.get(AiLogCaptureService);
  const base = Date.now() - 60_000;
  runWithTenant(tenant, () => {
    for (let i = 0; i < count; i++) {
      capture.toolCall({
        tool: 'get_project',
        args: { ...(projectId ? { project_id: projectId } : {}), n: i, ...args },
        startedAt: new Date(base + i),
        durationMs: 1.5,
        outcome: 'ok',
      });
    }
  });
}
