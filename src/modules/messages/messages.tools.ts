import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, IDEMPOTENT_UPDATE } from '../../mcp/tool-annotations';
import { output } from '../../mcp/tool-schema';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AckMessagesDto } from './dto/ack-messages.dto';
import { ReceiveMessagesDto } from './dto/receive-messages.dto';
import { SendMessageDto } from './dto/send-message.dto';
import { MessagesService } from './messages.service';

@Injectable()
export class MessagesTools {
  constructor(private readonly messages: MessagesService) {}

  @McpTool({
    name: 'send_message',
    annotations: ADDITIVE,
    outputSchema: output({ id: 'string', seq: 'integer' }),
    description: 'Message a session, an agent or the whole project.',
    params: ProjectIdDto,
    body: SendMessageDto,
  })
  send(params: ProjectIdDto, body: SendMessageDto) {
    return this.messages.send(params.project_id, body);
  }

  @McpTool({
    name: 'receive_messages',
    annotations: IDEMPOTENT_UPDATE,
    outputSchema: output({ messages: 'array' }),
    description: 'Unacknowledged messages, oldest first; ack_through acks.',
    params: ProjectIdDto,
    body: ReceiveMessagesDto,
  })
  receive(params: ProjectIdDto, body: ReceiveMessagesDto) {
    return this.messages.receive(params.project_id, body);
  }

  @McpTool({
    name: 'ack_messages',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Acknowledge every message of a session or named agent up to ack_through (a seq).',
    params: ProjectIdDto,
    body: AckMessagesDto,
  })
  ack(params: ProjectIdDto, body: AckMessagesDto) {
    return this.messages.ack(params.project_id, body);
  }
}
