import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';

/** create_issue: an issue in the connected repository. */
export class CreateIssueDto {
  @Title('title', 256)
  title!: string;

  @OptionalField()
  @BodyText('body', 65_536)
  body?: string;

  @OptionalField()
  @IsArray({ message: 'labels must be an array of strings' })
  @ArrayMaxSize(20, { message: 'labels must hold at most 20 labels' })
  @IsString({ each: true, message: 'labels must be an array of strings' })
  @MaxLength(50, { each: true, message: 'each label must be at most 50 characters' })
  labels?: string[];
}
