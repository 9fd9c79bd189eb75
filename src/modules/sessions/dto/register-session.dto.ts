import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { SessionNameRules } from './session-name.rules';

export class RegisterSessionDto {
  @Uuid()
  project_id!: string;

  /** Omitted: a distinct default name is given, so two sessions never share an identity by accident. */
  @IsOptional()
  @SessionNameRules()
  name?: string;

  /** Omitted: SERVICE_HUMAN_ID, then the OS user, then the host name. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  human_id?: string;

  @IsOptional()
  @IsIn(['interactive', 'worker'])
  kind?: 'interactive' | 'worker';
}
