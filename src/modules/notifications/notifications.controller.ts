import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { UpdateNotifySettingsDto } from './dto/update-notify-settings.dto';
import { NotificationsService, NotifyResult, NotifySettingsView, WorkspaceNotifyView } from './notifications.service';

@Controller('projects/:project_id')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get('ntfy')
  get(@Param() params: ProjectIdDto): Promise<NotifySettingsView> {
    return this.notifications.getSettings(params.project_id);
  }

  @Patch('ntfy')
  update(@Param() params: ProjectIdDto, @Body() body: UpdateNotifySettingsDto): Promise<NotifySettingsView> {
    return this.notifications.updateSettings(params.project_id, body);
  }

  @Post('notify/test')
  @HttpCode(200)
  test(@Param() params: ProjectIdDto): Promise<NotifyResult> {
    return this.notifications.sendTest(params.project_id);
  }
}

/** The workspace's default notification targets; a project's own (PATCH /projects/{id}/ntfy) come first. */
@Controller('settings/notifications')
export class WorkspaceNotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  get(): Promise<WorkspaceNotifyView> {
    return this.notifications.getWorkspaceDefaults();
  }

  @Patch()
  update(@Body() body: UpdateNotifySettingsDto): Promise<WorkspaceNotifyView> {
    return this.notifications.updateWorkspaceDefaults(body);
  }
}
