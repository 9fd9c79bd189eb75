import { Controller, Get, Param } from '@nestjs/common';
import { TenantIdDto } from './dto/tenant-id.dto';
import { PushDiagnosticsService } from './push-diagnostics.service';

@Controller('tunnel/diagnostics')
export class PushDiagnosticsController {
  constructor(private readonly diagnostics: PushDiagnosticsService) {}

  @Get(':tenant_id')
  get(@Param() params: TenantIdDto) {
    return this.diagnostics.diagnostics(params.tenant_id);
  }
}
