import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { UpdateNotifySettingsDto } from './dto/update-notify-settings.dto';
import { NotificationsService } from './notifications.service';

@Injectable()
export class NotificationsTools {
  constructor(private readonly notifications: NotificationsService) {}

  @McpTool({
    name: 'get_notification_settings',
    annotations: READ_ONLY,
    description: "Where a project's notifications go: notify_url (JSON POST) and notify_email.",
    input: ProjectIdDto,
  })
  get(input: ProjectIdDto) {
    return this.notifications.getSettings(input.project_id);
  }

  @McpTool({
    name: 'update_notification_settings',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Set or clear (null) the notify_url and notify_email of a project. Hosted: the URL must resolve to public addresses.',
    params: ProjectIdDto,
    body: UpdateNotifySettingsDto,
  })
  update(params: ProjectIdDto, body: UpdateNotifySettingsDto) {
    return this.notifications.updateSettings(params.project_id, body);
  }

  @McpTool({
    name: 'send_test_notification',
    annotations: { ...ADDITIVE, openWorldHint: true },
    description: "Send a test notification to the project's notify URL and e-mail; says what happened to each.",
    input: ProjectIdDto,
  })
  test(input: ProjectIdDto) {
    return this.notifications.sendTest(input.project_id);
  }
}
