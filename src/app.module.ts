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
import { WorkspaceModule } from './modules/workspace/workspace.module';
import { SprintModule } from './modules/sprint/sprint.module';
import { GoalsModule } from './modules/goals/goals.module';
import { NotesModule } from './modules/notes/notes.module';
import { TasksModule } from './modules/tasks/tasks.module';
import { WorkspaceLayerModule } from './modules/workspace-layer/workspace-layer.module';
import { AiLogModule } from './modules/ai-log/ai-log.module';

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
        ThrottlerModule.forRootAsync({
          inject: [APP_CONFIG, REDIS_CLIENT],
          useFactory: (cfg: AppConfig, redis: Redis | null) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: cfg.mcpRateLimit }],
            storage: new ResilientThrottlerStorage(redis),
          }),
        }),
        McpModule,
        RealtimeModule,
        HealthModule,
        ProjectsModule,
        ProjectSettingsModule,
        ProfileLayersModule,
        SessionsModule,
        WorkspaceModule,
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
        NotesModule,
        WorkspaceLayerModule,
        AiLogModule,
      ],
    };
  }
}
