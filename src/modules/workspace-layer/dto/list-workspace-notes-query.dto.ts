import { IsString, MaxLength } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { TagQueryRules } from '../../notes/dto/tag.rules';
import { PageQueryDto } from '../../tasks/dto/page-query.dto';

/** GET /workspace/notes: newest first; `tag` (exact, any case) and `substring` (of title or body, any case). */
export class ListWorkspaceNotesQueryDto extends PageQueryDto {
  @OptionalField()
  @TagQueryRules()
  tag?: string;

  @OptionalField()
  @IsString({ message: 'substring must be a string' })
  @MaxLength(200, { message: 'substring must be at most 200 characters' })
  substring?: string;
}
