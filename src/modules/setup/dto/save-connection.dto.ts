import { IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { CONNECTION_KINDS, ConnectionKind } from '../setup.constants';

export const CONNECTION_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/**
 * POST /config/connections: a name (lowercase letters, digits, - and _), what it is, where
 * (a postgres:// URL for a database, an http(s) URL otherwise), and a secret to seal.
 */
export class SaveConnectionDto {
  @Matches(CONNECTION_NAME, { message: 'name must be 1 to 63 lowercase letters, digits, - or _, starting with a letter or digit' })
  @IsString({ message: 'name must be a string' })
  name!: string;

  @IsIn(CONNECTION_KINDS, { message: `kind must be one of ${CONNECTION_KINDS.join(', ')}` })
  kind!: ConnectionKind;

  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  @IsString({ message: 'url must be a string' })
  url!: string;

  @OptionalField()
  @MaxLength(4096, { message: 'secret must be at most 4096 characters' })
  @IsString({ message: 'secret must be a string' })
  secret?: string;
}
