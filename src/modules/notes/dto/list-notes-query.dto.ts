import { IsString, MaxLength } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { TagQueryRules } from './tag.rules';
import { PageQueryDto } from '../../tasks/dto/page-query.dto';

/** GET .../notes: newest first; `tag` (exact, any case) and `query` (substring of title or body, any case) narrow it. */
export class ListNotesQueryDto extends PageQueryDto {
  @OptionalField()
  @TagQueryRules()
  tag?: string;

  @OptionalField()
  @IsString({ message: 'query must be a string' })
  @MaxLength(200, { message: 'query must be at most 200 characters' })
  query?: string;
}
