import { PickType } from '@nestjs/mapped-types';
import { IsOptional, Matches } from 'class-validator';
import { RegisterSessionDto } from '../../sessions/dto/register-session.dto';
import { HANDOFF_TOKEN_PATTERN } from '../../handoff/handoff.constants';
import { Uuid } from '../../../common/validation/uuid.decorator';

/** POST /projects/{id}/start-session: the session's name and person (both optional, as for register). */
export class StartSessionDto extends PickType(RegisterSessionDto, ['name', 'human_id'] as const) {
  /** Start from a handoff: its token is single-use, and the answer carries the handoff's content. */
  @IsOptional()
  @Matches(HANDOFF_TOKEN_PATTERN, { message: 'handoff_token must be a handoff token (ho_ and 16 letters or digits)' })
  handoff_token?: string;

  /** Start from a handoff by its id (the one start_session and the context block name as waiting): single-use like the token. */
  @IsOptional()
  @Uuid()
  handoff_id?: string;
}
