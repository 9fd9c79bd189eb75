import { DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { RedisModule, REDIS_CLIENT } from './cache/redis.module';
import { CommonModule } from './common/common.module';
import { ResilientThrottlerStorage } from './common/rate-limit/resilient-throttler.storage';
import { AppConfig } from './config/app-config';
import { APP_CONFIG, ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { McpModule } from './mcp/mcp.module';
import { ContextModule } from './modules/context/context.module';
import { HandoffModule } from './modules/handoff/handoff.module';
import { HooksModule } from './modules/hooks/hooks.module';
import { HealthModule } from './modules/health/health.module';
import { OpenApiModule } from './openapi/openapi.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { HitlModule } from './modules/hitl/hitl.module';
import { MessagesModule } from './modules/messages/messages.module';
import { NotificationsModule } from './modules/notifications/notifications.module';
import { ProjectSettingsModule } from './modules/project-settings/project-settings.module';
import { ProfileLayersModule } from './modules/profile-layers/profile-layers.module';
import { ProjectsModule } from './modules/projects/projects.module';
import { PushModule } from './modules/push/push.module';
import { RealtimeModule } from './modules/realtime/realtime.module';
import { SessionsModule } from './modules/sessions/sessions.module';
import { TenantsModule } from './modules/tenants/tenants.module';
import { SprintModule } from './modules/sprint/sprint.module';
import { GoalsModule } from './modules/goals/goals.module';
import { TimeModule } from './modules/time/time.module';
import { NotesModule } from './modules/notes/notes.module';
import { TasksModule } from './modules/tasks/tasks.module';
import { WorkspaceLayerModule } from './modules/workspace-layer/workspace-layer.module';
import { AiLogModule } from './modules/ai-log/ai-log.module';
import { AttributionModule } from './modules/attribution/attribution.module';
import { AccountsModule } from './modules/accounts/accounts.module';
import { AuthTokensModule } from './modules/auth-tokens/auth-tokens.module';
import { MagicLinkModule } from './modules/magic-link/magic-link.module';
import { AuthProvidersModule } from './modules/auth-providers/auth-providers.module';
import { CodehostModule } from './modules/codehost/codehost.module';
import { SiteGateModule } from './modules/site-gate/site-gate.module';
import { AdminAuthModule } from './common/auth/admin-auth.module';
import { AdminModule } from './modules/admin/admin.module';
import { SiteModule } from './modules/site/site.module';
import { SetupModule } from './modules/setup/setup.module';
import { MembersModule } from './modules/members/members.module';
import { AccountModule } from './modules/account/account.module';
import { OAuthServerModule } from './modules/oauth-server/oauth-server.module';
import { KnowledgeModule } from './modules/knowledge/knowledge.module';
import { ExecutorModule } from './modules/executor/executor.module';
import { BillingModule } from './modules/billing/billing.module';
import { PagesModule } from './modules/pages/pages.module';
import { A2aModule } from './modules/a2a/a2a.module';
import { ProposalsModule } from './modules/proposals/proposals.module';
import { AgentInterfacesModule } from './modules/agent-interfaces/agent-interfaces.module';
import { TunnelModule } from './modules/tunnel/tunnel.module';

/** Wires the modules. Feature modules go in the last group. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        CommonModule,
        RedisModule,
        DatabaseModule,
        TenantsModule,
        AccountsModule,
        ThrottlerModule.forRootAsync({
          inject: [APP_CONFIG, REDIS_CLIENT],
          useFactory: (cfg: AppConfig, redis: Redis | null) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: cfg.mcpRateLimit }],
            storage: new ResilientThrottlerStorage(redis),
          }),
        }),
        SiteGateModule,
        AdminAuthModule,
        McpModule,
        RealtimeModule,
        HealthModule,
        ProjectsModule,
        ProjectSettingsModule,
        ProfileLayersModule,
        SessionsModule,
        NotificationsModule,
        PushModule,
        HitlModule,
        MessagesModule,
        ContextModule,
        HandoffModule,
        HooksModule,
        SprintModule,
        TasksModule,
        GoalsModule,
        TimeModule,
        NotesModule,
        WorkspaceLayerModule,
        AiLogModule,
        AttributionModule,
        AuthTokensModule,
        MagicLinkModule,
        AuthProvidersModule,
        CodehostModule,
        AdminModule,
        SiteModule,
        SetupModule,
        MembersModule,
        AccountModule,
        OAuthServerModule,
        KnowledgeModule,
        ExecutorModule,
        BillingModule,
        PagesModule,
        OpenApiModule,
        MetricsModule,
        A2aModule,
        ProposalsModule,
        AgentInterfacesModule,
        TunnelModule,
      ],
    };
  }
}
