import { Controller, Get, Header, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { BadgeColour, renderBadge } from './badge.util';
import { InstanceStats } from './instance-stats.service';
import { SetupHealth, SetupNeeded, SetupService } from './setup.service';
import { Answers, SVG_BADGE } from '../../common/http/answers.decorator';

/** Badges are fetched by README renderers and proxies: a minute's cache keeps them fresh without a count per view. */
const BADGE_HEADERS = { 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'public, max-age=60', 'X-Content-Type-Options': 'nosniff' };

/** Public numbers of this instance: the status badges, and the setup checks. */
@Controller()
@Public()
export class StatusController {
  constructor(
    private readonly stats: InstanceStats,
    private readonly setup: SetupService,
  ) {}

  /** Answered at all means up; the badge is the liveness check a README can show. */
  @Get('status/server')
  @Answers(SVG_BADGE)
  server(@Res() res: Response): void {
    badge(res, 'baton', 'up', 'green');
  }

  @Get('status/sessions')
  @Answers(SVG_BADGE)
  async sessions(@Res() res: Response): Promise<void> {
    const count = await this.stats.activeSessions();
    badge(res, 'active sessions', String(count), count > 0 ? 'green' : 'grey');
  }

  @Get('status/tools')
  @Answers(SVG_BADGE)
  tools(@Res() res: Response): void {
    badge(res, 'MCP tools', String(this.stats.toolCount()), 'blue');
  }

  @Get('setup/needed')
  @Header('Cache-Control', 'no-store')
  needed(): Promise<SetupNeeded> {
    return this.setup.needed();
  }

  /** The deep health check with what a new instance's owner reads next (mode, database, address); 503 when degraded. */
  @Get('setup/health')
  @Header('Cache-Control', 'no-store')
  async health(@Res({ passthrough: true }) res: Response): Promise<SetupHealth> {
    const report = await this.setup.report();
    if (report.status !== 'ok') res.status(503);
    return report;
  }
}

function badge(res: Response, label: string, value: string, colour: BadgeColour): void {
  res
    .status(200)
    .set(BADGE_HEADERS)
    .send(renderBadge(label, value, colour));
}
