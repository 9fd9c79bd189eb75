import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum MagicLinkErrorCode {
  NotHosted = 'NOT_HOSTED',
  LinkUnknown = 'MAGIC_LINK_UNKNOWN',
  LinkUsed = 'MAGIC_LINK_USED',
  LinkExpired = 'MAGIC_LINK_EXPIRED',
}

const STATUS: StatusTable<MagicLinkErrorCode> = {
  [MagicLinkErrorCode.NotHosted]: HttpStatus.NOT_FOUND,
  [MagicLinkErrorCode.LinkUnknown]: HttpStatus.BAD_REQUEST,
  [MagicLinkErrorCode.LinkUsed]: HttpStatus.GONE,
  [MagicLinkErrorCode.LinkExpired]: HttpStatus.GONE,
};

const ASK_AGAIN = 'ask for a new link on the sign-in page';

export class MagicLinkError extends DomainErrorOf(STATUS) {
  static notHosted() {
    return new MagicLinkError(MagicLinkErrorCode.NotHosted, 'sign-in by e-mail link is for hosted mode: a self-hosted Baton needs no sign-in');
  }

  static unknown() {
    return new MagicLinkError(MagicLinkErrorCode.LinkUnknown, `this sign-in link is not valid (it may be incomplete: open the whole link from the e-mail, or ${ASK_AGAIN})`);
  }

  static used() {
    return new MagicLinkError(MagicLinkErrorCode.LinkUsed, `this sign-in link was already used: each link signs in once; ${ASK_AGAIN}`);
  }

  static expired(minutes: number) {
    return new MagicLinkError(MagicLinkErrorCode.LinkExpired, `this sign-in link has expired (links work for ${minutes} minutes); ${ASK_AGAIN}`);
  }
}
