import { Body, Controller, Get, Patch } from '@nestjs/common';
import { UpdateUsageSettingsDto } from './dto/update-usage-settings.dto';
import { UsageSettingsService } from './usage-settings.service';
import { UsageSettings } from './usage-settings.view';

/** The workspace's usage settings: its plan and its overage caps. */
@Controller('settings/usage')
export class UsageSettingsController {
  constructor(private readonly usage: UsageSettingsService) {}

  @Get()
  get(): Promise<UsageSettings> {
    return this.usage.get();
  }

  @Patch()
  update(@Body() body: UpdateUsageSettingsDto): Promise<UsageSettings> {
    return this.usage.update(body);
  }
}
