import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum NotificationErrorCode {
  TargetRefused = 'NOTIFY_TARGET_REFUSED',
}

const STATUS: StatusTable<NotificationErrorCode> = {
  [NotificationErrorCode.TargetRefused]: HttpStatus.BAD_REQUEST,
};

export class NotificationError extends DomainErrorOf(STATUS) {
  static targetRefused(reason: string) {
    return new NotificationError(NotificationErrorCode.TargetRefused, `notify_url refused: ${reason}`);
  }
}
