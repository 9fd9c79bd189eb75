import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { TenantsService } from '../tenants/tenants.service';
import { ConnectDbDto } from './dto/connect-db.dto';

@Controller('workspace')
export class WorkspaceController {
  constructor(private readonly tenants: TenantsService) {}

  /** BYODB: from now on this workspace's data lives in the given Postgres database. */
  @Post('connect-db')
  @HttpCode(200)
  connectDb(@Body() body: ConnectDbDto) {
    return this.tenants.connectOwnDatabase(body.url);
  }
}
