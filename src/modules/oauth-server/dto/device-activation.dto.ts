import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/**
 * The /activate form: a user code alone asks what it is for (the confirmation page), a user code
 * with a decision approves or denies it.
 */
export class DeviceActivationDto {
  @IsString()
  @MaxLength(128)
  csrf!: string;

  /** As the device shows it (`BCDF-GHJK`); case, spaces and dashes do not matter. */
  @IsString()
  @MaxLength(32)
  @Matches(/^[A-Za-z0-9 -]+$/, { message: 'user_code must be the code your device shows, such as BCDF-GHJK' })
  user_code!: string;

  @IsOptional()
  @IsIn(['approve', 'deny'])
  decision?: 'approve' | 'deny';
}
