import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ConnectDbDto } from './dto/connect-db.dto';
import { OwnDatabases } from './own-databases.service';

@Controller('workspace')
export class WorkspaceController {
  constructor(private readonly ownDatabases: OwnDatabases) {}

  /** BYODB: from now on this workspace's data lives in the given Postgres database. */
  @Post('connect-db')
  @HttpCode(200)
  connectDb(@Body() body: ConnectDbDto) {
    return this.ownDatabases.connect(body.url);
  }
}
