import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { ShutdownDrain } from '../../common/lifecycle/shutdown-drain';
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
    private readonly drain: ShutdownDrain,
  ) {}

  /** Kubernetes liveness: the process answers (nothing else is checked, so a slow database never restarts it). */
  @Get('health/live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Kubernetes readiness: 503 once the instance is stopping, so the balancer sends new work elsewhere. */
  @Get('health/ready')
  ready(): { status: 'ready' } {
    if (this.drain.draining) throw new ServiceUnavailableException('this instance is stopping: send requests to another one');
    return { status: 'ready' };
  }

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
