import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { UpdateNotifySettingsToolDto } from './dto/update-notify-settings-tool.dto';
import { NotificationsService } from './notifications.service';

@Injectable()
export class NotificationsTools {
  constructor(private readonly notifications: NotificationsService) {}

  @McpTool({ name: 'get_notification_settings', description: "Where a project's notifications go: notify_url (JSON POST) and notify_email.", input: ProjectIdDto })
  get(input: ProjectIdDto) {
    return this.notifications.getSettings(input.project_id);
  }

  @McpTool({
    name: 'update_notification_settings',
    description: 'Set or clear (null) the notify_url and notify_email of a project. Hosted: the URL must resolve to public addresses.',
    input: UpdateNotifySettingsToolDto,
  })
  update(input: UpdateNotifySettingsToolDto) {
    return this.notifications.updateSettings(input.project_id, input);
  }

  @McpTool({ name: 'send_test_notification', description: "Send a test notification to the project's notify URL and e-mail; says what happened to each.", input: ProjectIdDto })
  test(input: ProjectIdDto) {
    return this.notifications.sendTest(input.project_id);
  }
}
