import { Uuid } from '../../../common/validation/uuid.decorator';

/** A waitlist entry, blog post or changelog entry named in the path. */
export class EntryIdParamsDto {
  @Uuid()
  entry_id!: string;
}
