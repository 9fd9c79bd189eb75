import { Module } from '@nestjs/common';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';
import { AccountDeletionService } from './account-deletion.service';
import { AccountExportService } from './account-export.service';
import { AccountController } from './account.controller';
import { SqliteExportService } from './sqlite-export.service';
import { WorkspaceExportController } from './workspace-export.controller';

/** A person's own account (hosted): data export and deletion; and the workspace's full SQLite export (both modes). */
@Module({
  controllers: [AccountController, WorkspaceExportController],
  providers: [AccountDeletionService, AccountExportService, SqliteExportService, WindowLimiter],
})
export class AccountModule {}
