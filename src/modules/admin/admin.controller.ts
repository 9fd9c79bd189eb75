import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { requestExit } from '../../common/lifecycle/process-exit';
import { AdminAudit } from '../site/admin-audit.service';
import { AdminError } from './admin.errors';
import { AdminOps, GitStatus } from './admin-ops.service';
import { AdminStats, AdminStatsService } from './admin-stats.service';
import type { Request, Response } from 'express';
import { AdminIdentity } from '../../common/auth/admin-identity.service';
import { AdminOnly } from '../../common/auth/admin-only.decorator';
import { Public } from '../../common/auth/public.decorator';
import { AdminHealth, AdminHealthService } from './admin-health.service';
import { AdminLoginDoor } from './admin-login.door';
import { AdminLoginDto } from './dto/admin-login.dto';
import { Answers, DOWNLOAD, HTML_PAGE, SEE_OTHER } from '../../common/http/answers.decorator';

/** The operator's routes: sign-in, the instance's health and figures, its snapshot, its exit. The console is AdminConsoleController. */
@Controller('admin')
export class AdminController {
  constructor(
    private readonly login: AdminLoginDoor,
    private readonly identity: AdminIdentity,
    private readonly health: AdminHealthService,
    private readonly stats: AdminStatsService,
    private readonly ops: AdminOps,
    private readonly audit: AdminAudit,
  ) {}

  @Get('login')
  @Public()
  @Answers(HTML_PAGE)
  loginPage(@Query('next') next: unknown, @Res() res: Response): void {
    this.login.page(next, res);
  }

  @Post('login')
  @Public()
  @Answers(SEE_OTHER, { status: 401, contentType: 'text/html', description: 'The sign-in page again: the password was wrong.' })
  signIn(@Body() body: AdminLoginDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.login.signIn(body, req, res);
  }

  /** Ends the admin password's cookie (an admin signed in by address signs out at /auth/logout). */
  @Post('logout')
  @Public()
  @HttpCode(204)
  signOut(@Res({ passthrough: true }) res: Response): void {
    this.identity.clearCookie(res);
  }

  @Get('health')
  @AdminOnly()
  instanceHealth(): Promise<AdminHealth> {
    return this.health.report();
  }

  @Get('git-status')
  @AdminOnly()
  gitStatus(): Promise<GitStatus> {
    return this.ops.gitStatus();
  }

  @Get('stats')
  @AdminOnly()
  instanceStats(): Promise<AdminStats> {
    return this.stats.report();
  }

  @Get('snapshot')
  @AdminOnly()
  @Answers(DOWNLOAD)
  async snapshot(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.ops.snapshot(async (path, name) => {
      await new Promise<void>((resolve, reject) => res.download(path, name, { headers: { 'Cache-Control': 'no-store' } }, (error) => (error ? reject(error) : resolve())));
      await this.audit.recordFor(req, 'snapshot', name);
    });
  }

  /** Throws on purpose: the operator sees the 500 with its error id, and finds the same id in the log. */
  @Get('__error_test')
  @AdminOnly()
  errorTest(): never {
    throw new Error('admin error test: this failure was asked for');
  }

  /** Answers, then closes (requests in flight finish first) and exits 75, for the supervisor to start Baton again. */
  @Post('restart')
  @AdminOnly()
  @HttpCode(202)
  restart(@Req() req: Request): Promise<{ detail: string }> {
    return this.exit(req, 'restart', RESTART_EXIT_CODE, 'restarting: requests in flight finish first');
  }

  /** Answers, then closes (requests in flight finish first) and exits 0. */
  @Post('shutdown')
  @AdminOnly()
  @HttpCode(202)
  shutdown(@Req() req: Request): Promise<{ detail: string }> {
    return this.exit(req, 'shutdown', 0, 'shutting down: requests in flight finish first');
  }

  private async exit(req: Request, action: string, code: number, detail: string): Promise<{ detail: string }> {
    await this.audit.recordFor(req, action);
    if (!requestExit(code)) throw AdminError.exitUnavailable();
    return { detail };
  }
}

/** EX_TEMPFAIL: a supervisor that restarts on failure (systemd Restart=on-failure, Docker on-failure) starts Baton again. */
export const RESTART_EXIT_CODE = 75;
