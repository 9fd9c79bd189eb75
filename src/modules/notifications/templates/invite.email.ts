import { MemberRole } from '../../../common/auth/principal';
import { aRole } from '../../members/member-rights.util';
import type { Email } from '../email.sender';
import { htmlLetter, oneLine } from './email-html.util';

export interface InviteLetter {
  to: string;
  role: MemberRole;
  workspace: string;
  inviter: string;
  link: string;
  expiresAt: Date;
}

/** The invitation e-mail: who invites, to which workspace, as what, and the single-use link. */
export function inviteEmail(letter: InviteLetter): Email {
  const workspace = oneLine(letter.workspace);
  const inviter = oneLine(letter.inviter);
  const subject = `${inviter} invited you to ${workspace} on Baton`;
  const invited = `${inviter} invited you to join the workspace "${workspace}" on Baton as ${aRole(letter.role)}.`;
  const accept = `Accept the invitation (the link works once, until ${letter.expiresAt.toUTCString()}):`;
  const signIn = `Sign in with this address (${letter.to}) to join. If you did not expect this invitation, ignore this e-mail.`;
  return {
    to: letter.to,
    subject,
    text: [invited, '', accept, letter.link, '', signIn].join('\n'),
    html: htmlLetter(subject, [invited, accept, { link: letter.link, label: `Join ${workspace}` }, signIn]),
  };
}
