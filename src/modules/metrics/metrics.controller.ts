import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { Public } from '../../common/auth/public.decorator';
import { RequestError } from '../../common/errors/request-error';
import { Answers } from '../../common/http/answers.decorator';
import { Metrics } from '../../common/observability/metrics';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/** Prometheus scrape target. Open unless SERVICE_METRICS_TOKEN is set; then that bearer token only. */
@Controller()
@Public()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('metrics')
  @Answers({ status: 200, contentType: 'text/plain', description: 'The figures in the Prometheus text format (version 0.0.4).' })
  async scrape(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (this.config.metricsToken && !sameSecret(req.headers.authorization, `Bearer ${this.config.metricsToken}`)) {
      throw RequestError.unauthorized('GET /metrics needs the bearer token of SERVICE_METRICS_TOKEN');
    }
    const text = await this.metrics.text();
    res.status(200).set({ 'Content-Type': this.metrics.registry.contentType, 'Cache-Control': 'no-store' }).send(text);
  }
}

function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
