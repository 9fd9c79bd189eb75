import { Module } from '@nestjs/common';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';
import { MessagesTools } from './messages.tools';

@Module({
  controllers: [MessagesController],
  providers: [MessagesService, MessagesTools],
  exports: [MessagesService],
})
export class MessagesModule {}
