import { IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';

export class RegisterSessionDto {
  @IsUUID('all', { message: 'project_id must be a UUID' })
  project_id!: string;

  /** Omitted: a distinct default name is given, so two sessions never share an identity by accident. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  @Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'name must not contain control characters' })
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
