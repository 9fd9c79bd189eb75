import { Matches } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { MAX_REPO_FILE_CHARS } from '../codehost.constants';
import { RefRules, RepoFilePathRules } from './codehost.rules';

/** patch_file: the new content of one file, committed with `message` (on `branch`, default the default branch). */
export class PatchFileDto {
  @RepoFilePathRules()
  path!: string;

  @BodyText('content', MAX_REPO_FILE_CHARS)
  content!: string;

  @Title('message', 500)
  message!: string;

  @OptionalField()
  @RefRules('branch')
  branch?: string;

  /** The blob sha read before editing: the write is refused when the file changed since. */
  @OptionalField()
  @Matches(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/, { message: 'expected_sha must be a blob sha (40 or 64 hex digits)' })
  expected_sha?: string;
}
