import { IsBoolean, IsOptional, IsString, Matches } from 'class-validator';
import { PlainText } from '../../../common/validation/plain-text.decorator';
import { ShortName } from '../../../common/validation/short-name.decorator';
import { OptionalAgentName, OptionalSessionId } from './message-fields.rules';

/** POST /projects/{id}/messages: exactly one of to_session_id, to_agent or broadcast. */
export class SendMessageDto {
  @OptionalSessionId()
  to_session_id?: string;

  @OptionalAgentName('to_agent')
  to_agent?: string;

  /** true: every session and agent of the project receives it. */
  @IsOptional()
  @IsBoolean()
  broadcast?: boolean;

  @PlainText('body', 65_536)
  body!: string;

  /**
   * The sending session: Baton checks it is a live session of the project and records it, so a
   * receiver can reply to it and a broadcast skips it. Its name is the default `from`.
   */
  @OptionalSessionId()
  session_id?: string;

  /** Who sends (an agent or a person's name): shown to the receiver. */
  @IsOptional()
  @ShortName()
  from?: string;

  /** A retried send with the same key stores one message and answers the stored one. */
  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,200}$/, { message: 'idempotency_key must be 1 to 200 printable ASCII characters without spaces' })
  @IsString()
  idempotency_key?: string;
}
