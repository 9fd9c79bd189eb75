import { Global, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthFailureLimiter } from '../../common/rate-limit/auth-failure-limiter';
import { ApiTokens } from './api-tokens.service';
import { OwnDatabaseMigrator } from './own-database-migrator.service';
import { OwnDatabases } from './own-databases.service';
import { TenantDirectory } from './tenant-directory.service';
import { TenantGuard } from './tenant.guard';
import { TenantMaker } from './tenant-maker.service';
import { TenantMigrations } from './tenant-migrations.service';
import { TenantProvisioning } from './tenant-provisioning.service';
import { TenantResolver } from './tenant-resolver.service';
import { TenantSpares } from './tenant-spares.service';
import { TokenUsage } from './token-usage.service';
import { WorkspaceController } from './workspace.controller';

/** The control plane: who a request's tenant is, and the tenants' lifecycle, tokens, migrations and own databases. */
@Global()
@Module({
  controllers: [WorkspaceController],
  providers: [
    AuthFailureLimiter,
    TokenUsage,
    TenantResolver,
    TenantDirectory,
    ApiTokens,
    TenantMaker,
    TenantSpares,
    TenantProvisioning,
    OwnDatabaseMigrator,
    OwnDatabases,
    TenantMigrations,
    { provide: APP_GUARD, useClass: TenantGuard },
  ],
  exports: [AuthFailureLimiter, TokenUsage, TenantResolver, TenantDirectory, ApiTokens, TenantProvisioning, TenantSpares, TenantMigrations],
})
export class TenantsModule implements OnApplicationBootstrap {
  constructor(
    private readonly migrations: TenantMigrations,
    private readonly spares: TenantSpares,
  ) {}

  async onApplicationBootstrap() {
    await this.migrations.upgradeBehind();
    // After the upgrade, so the spares it counts are the ones it can hand out.
    this.spares.replenish();
  }
}
