import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AckMessagesDto } from './dto/ack-messages.dto';
import { ReceiveMessagesDto } from './dto/receive-messages.dto';
import { SendMessageDto } from './dto/send-message.dto';
import { MessagePage } from './message.view';
import { MessagesService, ReceiveResult, SendResult } from './messages.service';
import { ListMessagesQueryDto } from './dto/list-messages-query.dto';

@Controller('projects/:project_id/messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  /** 201 with the stored message; 200 with the same message when the idempotency key was seen before. */
  @Post()
  async send(@Param() params: ProjectIdDto, @Body() body: SendMessageDto, @Res({ passthrough: true }) res: Response): Promise<SendResult> {
    const result = await this.messages.send(params.project_id, body);
    if (result.duplicate) res.status(200);
    return result;
  }

  /** The project's messages, newest first, for a person (no reader, no cursor moves). */
  @Get()
  list(@Param() params: ProjectIdDto, @Query() query: ListMessagesQueryDto): Promise<MessagePage> {
    return this.messages.list(params.project_id, query);
  }

  @Post('receive')
  @HttpCode(200)
  receive(@Param() params: ProjectIdDto, @Body() body: ReceiveMessagesDto): Promise<ReceiveResult> {
    return this.messages.receive(params.project_id, body);
  }

  @Post('ack')
  @HttpCode(200)
  ack(@Param() params: ProjectIdDto, @Body() body: AckMessagesDto): Promise<{ acked_through: number }> {
    return this.messages.ack(params.project_id, body);
  }
}
