import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '../../common/auth/public.decorator';
import { FailoverService, FailoverStatus } from './failover.service';

/** Public like /health: it says how the instance serves, and nothing of any workspace. */
@Controller('failover-status')
@Public()
export class FailoverController {
  constructor(private readonly failover: FailoverService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  status(): Promise<FailoverStatus> {
    return this.failover.status();
  }
}
