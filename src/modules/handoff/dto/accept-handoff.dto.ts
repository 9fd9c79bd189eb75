import { IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { HANDOFF_CONTENT_MAX, HANDOFF_TOKEN_PATTERN } from '../handoff.constants';

/** Which handoff to check: its id, its token, or its content as received (the id is read from the front matter). Each may be left out, none may be null. */
export class AcceptHandoffDto {
  @OptionalNotNull()
  @Uuid()
  handoff_id?: string;

  @OptionalNotNull()
  @IsString({ message: 'token must be a string' })
  @Matches(HANDOFF_TOKEN_PATTERN, { message: 'token must be a handoff token (ho_ and 16 letters or digits)' })
  token?: string;

  /** The handoff as received: checked against what Baton generated (body_mismatch when changed). */
  @OptionalNotNull()
  @IsString({ message: 'content must be a string' })
  @MaxLength(HANDOFF_CONTENT_MAX, { message: `content must be at most ${HANDOFF_CONTENT_MAX} characters` })
  content?: string;
}
