import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { currentTenant } from '../../../libs/tenancy';
import { PublicUrl } from '../../common/public-url';
import { TenantIdDto } from '../push/dto/tenant-id.dto';
import { AgentInterfacesError } from './agent-interfaces.errors';
import { VendorAdapter } from './vendor-adapter.service';

/** `POST /tunnel/vendor/diagnostics/{tenant_id}`: the vendor adapter's state for the caller's own workspace; read from in-process counters, no side effect. */
@Controller('tunnel/vendor/diagnostics')
export class VendorDiagnosticsController {
  constructor(
    private readonly adapter: VendorAdapter,
    private readonly url: PublicUrl,
  ) {}

  @Post(':tenant_id')
  @HttpCode(200)
  diagnostics(@Param() params: TenantIdDto) {
    const tenantId = params.tenant_id.toLowerCase();
    if (currentTenant().tenantId !== tenantId) throw AgentInterfacesError.tenantNotFound(params.tenant_id);
    return this.adapter.diagnostics(tenantId, this.url.base);
  }
}
