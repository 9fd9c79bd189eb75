import { Body, Controller, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { AccountDeleted, AccountDeletionService } from './account-deletion.service';
import { AccountExport, AccountExportService } from './account-export.service';
import { DeleteAccountDto } from './dto/delete-account.dto';

/** The signed-in person's own account: its data as a file, and its deletion. Public: they need a person, not a workspace. */
@Controller()
@Public()
export class AccountController {
  constructor(
    private readonly deletion: AccountDeletionService,
    private readonly exporter: AccountExportService,
  ) {}

  /** Permanent: `{"confirmation": "DELETE"}`. */
  @Post('account/delete')
  @HttpCode(200)
  delete(@Body() _body: DeleteAccountDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AccountDeleted> {
    return this.deletion.delete(req, res);
  }

  @Get('export/my-data')
  @Header('Cache-Control', 'no-store')
  async myData(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AccountExport> {
    const data = await this.exporter.export(req);
    res.attachment(`baton-export-${data.exported_at.slice(0, 10)}.json`);
    return data;
  }
}
