import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';

/** PATCH /projects/{id}/ntfy: only the fields given change; null clears one. */
export class UpdateNotifySettingsDto {
  /** http(s) URL that receives a JSON POST per notification. */
  @IsOptional()
  @MaxLength(2048)
  @IsString()
  notify_url?: string | null;

  @IsOptional()
  @IsEmail({}, { message: 'notify_email must be an e-mail address' })
  @MaxLength(320)
  @IsString({ message: 'notify_email must be a string' })
  notify_email?: string | null;
}
