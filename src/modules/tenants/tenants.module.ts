import { Global, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthFailureLimiter } from '../../common/rate-limit/auth-failure-limiter';
import { TenantGuard } from './tenant.guard';
import { TenantResolver } from './tenant-resolver.service';
import { TenantsService } from './tenants.service';

@Global()
@Module({
  providers: [AuthFailureLimiter, TenantResolver, TenantsService, { provide: APP_GUARD, useClass: TenantGuard }],
  exports: [AuthFailureLimiter, TenantResolver, TenantsService],
})
export class TenantsModule implements OnApplicationBootstrap {
  constructor(private readonly tenants: TenantsService) {}

  async onApplicationBootstrap() {
    await this.tenants.upgradeTenantSchemas();
  }
}
