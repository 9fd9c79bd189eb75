import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum MembersErrorCode {
  NotHosted = 'MEMBERS_NOT_HOSTED',
  PersonRequired = 'PERSON_REQUIRED',
  NotAllowed = 'NOT_ALLOWED',
  MemberNotFound = 'MEMBER_NOT_FOUND',
  LastOwner = 'LAST_OWNER',
  AlreadyMember = 'ALREADY_MEMBER',
  InvitePending = 'INVITE_PENDING',
  NotInvited = 'NOT_INVITED',
  InviteNotFound = 'INVITE_NOT_FOUND',
  InviteExpired = 'INVITE_EXPIRED',
  InviteForAnotherAddress = 'INVITE_FOR_ANOTHER_ADDRESS',
}

const STATUS: StatusTable<MembersErrorCode> = {
  [MembersErrorCode.NotHosted]: HttpStatus.NOT_FOUND,
  [MembersErrorCode.PersonRequired]: HttpStatus.FORBIDDEN,
  [MembersErrorCode.NotAllowed]: HttpStatus.FORBIDDEN,
  [MembersErrorCode.MemberNotFound]: HttpStatus.NOT_FOUND,
  [MembersErrorCode.LastOwner]: HttpStatus.CONFLICT,
  [MembersErrorCode.AlreadyMember]: HttpStatus.CONFLICT,
  [MembersErrorCode.InvitePending]: HttpStatus.CONFLICT,
  [MembersErrorCode.NotInvited]: HttpStatus.CONFLICT,
  [MembersErrorCode.InviteNotFound]: HttpStatus.NOT_FOUND,
  [MembersErrorCode.InviteExpired]: HttpStatus.GONE,
  [MembersErrorCode.InviteForAnotherAddress]: HttpStatus.FORBIDDEN,
};

/** Refusals about a workspace's members and invitations. */
export class MembersError extends DomainErrorOf(STATUS) {
  static notHosted() {
    return new MembersError(MembersErrorCode.NotHosted, 'workspace members exist in hosted mode only: a self-hosted Baton has no accounts');
  }

  static personRequired() {
    return new MembersError(MembersErrorCode.PersonRequired, "managing members needs a signed-in owner or admin (the web session), not a workspace's API token");
  }

  static notAllowed(what: string) {
    return new MembersError(MembersErrorCode.NotAllowed, `your role in this workspace does not allow ${what}`);
  }

  static memberNotFound(id: string) {
    return new MembersError(MembersErrorCode.MemberNotFound, `member ${id} not found in this workspace`);
  }

  static lastOwner(what: 'demoted' | 'removed') {
    return new MembersError(MembersErrorCode.LastOwner, `the last owner of a workspace cannot be ${what}: make another member an owner first`);
  }

  static alreadyMember(email: string, memberId: string) {
    return new MembersError(MembersErrorCode.AlreadyMember, `${email} is already a member of this workspace`, { member_id: memberId });
  }

  static invitePending(email: string, memberId: string) {
    return new MembersError(MembersErrorCode.InvitePending, `${email} is already invited: send the invitation again with POST /workspace/invite/${memberId}/resend`, {
      member_id: memberId,
    });
  }

  static notInvited(id: string) {
    return new MembersError(MembersErrorCode.NotInvited, `member ${id} has already joined: there is no invitation to send again`);
  }

  static inviteNotFound() {
    return new MembersError(MembersErrorCode.InviteNotFound, 'this invitation link is not valid: it was used already, replaced by a newer one, or withdrawn');
  }

  static inviteExpired() {
    return new MembersError(MembersErrorCode.InviteExpired, 'this invitation has expired: ask the workspace for a new one');
  }

  static inviteForAnotherAddress() {
    return new MembersError(
      MembersErrorCode.InviteForAnotherAddress,
      'this invitation was sent to another e-mail address: sign in with the address it was sent to, then open the link again',
    );
  }
}
