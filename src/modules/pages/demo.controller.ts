import { Controller, Delete, Get, HttpCode, Patch, Post, Put, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { RequestError } from '../../common/errors/request-error';
import { DEMO_COOKIE, DemoAccess, DemoError } from './demo-access.service';
import { DemoProject, DemoStore } from './demo-store.service';

/** The demo's cookie and the demo project's read-only API (the page itself is /demo). */
@Controller()
@Public()
export class DemoController {
  constructor(
    private readonly access: DemoAccess,
    private readonly store: DemoStore,
  ) {}

  @Post('demo-auth')
  @HttpCode(200)
  async signIn(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const { cookie, body } = await this.access.issue(req.ip);
    res.cookie(DEMO_COOKIE, cookie, this.access.cookieOptions());
    return body;
  }

  @Get('demo/api/project')
  project(@Req() req: Request): Promise<DemoProject> {
    this.access.require(req.headers.cookie);
    return this.store.project();
  }

  /** Any other read under the demo's API: not found (the demo has one project and nothing else). */
  @Get('demo/api/*path')
  otherRead(@Req() req: Request): never {
    this.access.require(req.headers.cookie);
    throw RequestError.notFound(`the demo has no ${req.path}`);
  }

  /** Every write under the demo's API is refused: the demo is read-only. */
  @Post('demo/api/*path')
  create(@Req() req: Request): never {
    return this.refuseWrite(req);
  }

  @Put('demo/api/*path')
  replace(@Req() req: Request): never {
    return this.refuseWrite(req);
  }

  @Patch('demo/api/*path')
  update(@Req() req: Request): never {
    return this.refuseWrite(req);
  }

  @Delete('demo/api/*path')
  remove(@Req() req: Request): never {
    return this.refuseWrite(req);
  }

  private refuseWrite(req: Request): never {
    this.access.require(req.headers.cookie);
    throw DemoError.readOnly();
  }
}
