import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum NotificationErrorCode {
  TargetRefused = 'NOTIFY_TARGET_REFUSED',
}

export class NotificationError extends DomainError<NotificationErrorCode> {
  static targetRefused(reason: string) {
    return new NotificationError(NotificationErrorCode.TargetRefused, `notify_url refused: ${reason}`);
  }

  get httpStatus(): number {
    switch (this.code) {
      case NotificationErrorCode.TargetRefused:
        return 400;
      default:
        return assertUnreachable(this.code);
    }
  }
}
