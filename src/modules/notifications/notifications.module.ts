import { Global, Module } from '@nestjs/common';
import { EmailSender } from './email.sender';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { NotificationsTools } from './notifications.tools';

@Global()
@Module({
  controllers: [NotificationsController],
  providers: [NotificationsService, EmailSender, NotificationsTools],
  exports: [NotificationsService, EmailSender],
})
export class NotificationsModule {}
