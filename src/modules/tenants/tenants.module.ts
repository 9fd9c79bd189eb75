import { Global, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TenantInterceptor } from './tenant.interceptor';
import { TenantResolver } from './tenant-resolver.service';
import { TenantsService } from './tenants.service';

@Global()
@Module({
  providers: [TenantResolver, TenantsService, { provide: APP_INTERCEPTOR, useClass: TenantInterceptor }],
  exports: [TenantResolver, TenantsService],
})
export class TenantsModule implements OnApplicationBootstrap {
  constructor(private readonly tenants: TenantsService) {}

  async onApplicationBootstrap() {
    await this.tenants.upgradeTenantSchemas();
  }
}
