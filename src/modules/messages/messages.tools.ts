import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { AckMessagesToolDto } from './dto/ack-messages-tool.dto';
import { ReceiveMessagesToolDto } from './dto/receive-messages-tool.dto';
import { SendMessageToolDto } from './dto/send-message-tool.dto';
import { MessagesService } from './messages.service';

@Injectable()
export class MessagesTools {
  constructor(private readonly messages: MessagesService) {}

  @McpTool({
    name: 'send_message',
    description:
      'Send a message to a session (to_session_id), a named agent (to_agent) or the whole project (broadcast: true). Pass your session_id: receivers see it as from_session_id to reply to, and your own broadcasts do not come back to you. Durable; an idempotency_key makes a retried send store one message.',
    input: SendMessageToolDto,
  })
  send(input: SendMessageToolDto) {
    return this.messages.send(input.project_id, input);
  }

  @McpTool({
    name: 'receive_messages',
    description:
      'Receive the unacknowledged messages of a session (session_id) or a named agent (agent), oldest first. Pass ack_through = the last seq you handled to acknowledge (acknowledged messages never come again; others come back until acknowledged). wait_seconds waits for a message (capped, 50 s by default).',
    input: ReceiveMessagesToolDto,
  })
  receive(input: ReceiveMessagesToolDto) {
    return this.messages.receive(input.project_id, input);
  }

  @McpTool({ name: 'ack_messages', description: 'Acknowledge every message of a session or named agent up to ack_through (a seq).', input: AckMessagesToolDto })
  ack(input: AckMessagesToolDto) {
    return this.messages.ack(input.project_id, input);
  }
}
