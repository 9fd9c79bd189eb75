import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';

/** POST /feedback: what the person says, and optionally how to answer them and where they were. */
export class SendFeedbackDto {
  @BodyText('message', 5000, { notBlank: true })
  message!: string;

  @OptionalField()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  @IsString({ message: 'email must be a string' })
  email?: string;

  @OptionalField()
  @Title('page', 500)
  page?: string;
}
