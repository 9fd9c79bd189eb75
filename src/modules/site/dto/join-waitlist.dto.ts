import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';

/** POST /waitlist: an address and, optionally, a word on what it is for. */
export class JoinWaitlistDto {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  @IsString({ message: 'email must be a string' })
  email!: string;

  @OptionalField()
  @BodyText('note', 2000)
  note?: string;
}
