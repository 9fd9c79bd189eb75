import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ChecksReadScope } from '../../common/auth/read-scope.decorator';
import { PkgCheckDto } from './dto/pkg-check.dto';
import { PkgRulesDto } from './dto/pkg-rules.dto';
import { PkgGuardService } from './pkg-guard.service';

@Controller('pkg-guard')
export class PkgGuardController {
  constructor(private readonly guard: PkgGuardService) {}

  /** A verdict, not a change: a read-scope token may ask it. 200 whether allowed or not; `allowed` and `reason` say which. */
  @Post('check')
  @HttpCode(200)
  @ChecksReadScope()
  check(@Body() body: PkgCheckDto) {
    return this.guard.check(body);
  }

  @Get('rules')
  rules() {
    return this.guard.rules();
  }

  @Put('rules')
  replace(@Body() body: PkgRulesDto) {
    return this.guard.replaceRules(body);
  }
}
