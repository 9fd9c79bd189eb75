import { IsInt, IsISO8601, IsString, Max, Min } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { REWIND_TOKEN_TTL_MAX_S } from '../time.constants';

const AT_MESSAGE = 'at must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z';

/** POST .../rewind-token: the moment the link shows (default: now) and how long it stays open (seconds; default one hour). */
export class RewindTokenDto {
  @OptionalField()
  @IsString({ message: AT_MESSAGE })
  @IsISO8601({ strict: true }, { message: AT_MESSAGE })
  at?: string;

  @OptionalField()
  @IsInt({ message: 'ttl_seconds must be an integer' })
  @Min(60, { message: 'ttl_seconds must be at least 60' })
  @Max(REWIND_TOKEN_TTL_MAX_S, { message: `ttl_seconds must be at most ${REWIND_TOKEN_TTL_MAX_S}` })
  ttl_seconds?: number;
}
