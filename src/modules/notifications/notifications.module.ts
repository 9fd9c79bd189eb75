import { Global, Module } from '@nestjs/common';
import { EmailQueue } from './email-queue.service';
import { EmailSender } from './email.sender';
import { NotificationsController, WorkspaceNotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { NotificationsTools } from './notifications.tools';

@Global()
@Module({
  controllers: [NotificationsController, WorkspaceNotificationsController],
  providers: [NotificationsService, EmailSender, EmailQueue, NotificationsTools],
  exports: [NotificationsService, EmailSender, EmailQueue],
})
export class NotificationsModule {}
