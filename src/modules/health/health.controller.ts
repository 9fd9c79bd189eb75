import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { AppConfig, publicConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DeepHealth, HealthService } from './health.service';

@Controller()
@Public()
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly health: HealthService,
  ) {}

  /** Liveness: answers from memory, touches nothing. */
  @Get('health')
  liveness() {
    return { status: 'ok', service: 'baton', version: this.config.version, git_sha: this.config.gitSha };
  }

  /** Readiness for deploy checks: the database (and Redis when configured) answer; 503 otherwise. */
  @Get('health/deep')
  async deep(@Res({ passthrough: true }) res: Response): Promise<DeepHealth> {
    const report = await this.health.deep();
    if (report.status !== 'ok') res.status(503);
    return report;
  }

  @Get('config')
  configuration() {
    return publicConfig(this.config);
  }
}
