import { IsISO8601, IsString } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';

const AT_MESSAGE = 'at must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z';

/** The moment a rewind shows (ISO 8601): the MCP tool's argument. */
export class RewindAtDto {
  @IsString({ message: AT_MESSAGE })
  @IsISO8601({ strict: true }, { message: AT_MESSAGE })
  at!: string;
}

/**
 * GET .../rewind: the moment (required with the workspace's credentials; a shared rewind link
 * carries its own), and a shared rewind token when no other credential is given.
 */
export class RewindQueryDto {
  @OptionalField()
  @IsString({ message: AT_MESSAGE })
  @IsISO8601({ strict: true }, { message: AT_MESSAGE })
  at?: string;

  /** A rewind token (brw_...), checked by ProjectTokenGuard; declared so the query validates. */
  @OptionalField()
  @IsString({ message: 'token must be a string' })
  token?: string;
}
