import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { SqliteExportService } from './sqlite-export.service';
import { Answers } from '../../common/http/answers.decorator';

/** The current workspace's own data as a file (its owner's). */
@Controller('export')
export class WorkspaceExportController {
  constructor(private readonly sqlite: SqliteExportService) {}

  /** The workspace as a SQLite file, streamed as an attachment. */
  @Get('sqlite')
  @Answers({ status: 200, contentType: 'application/vnd.sqlite3', description: "The workspace's own data as one SQLite file (an attachment)." })
  async sqliteFile(@CurrentPrincipal() principal: Principal, @Res() res: Response): Promise<void> {
    await this.sqlite.export(
      principal,
      (path, name) =>
        new Promise<void>((resolve, reject) =>
          res.download(path, name, { headers: { 'Cache-Control': 'no-store', 'Content-Type': 'application/vnd.sqlite3' } }, (error) => (error ? reject(error) : resolve())),
        ),
    );
  }
}
