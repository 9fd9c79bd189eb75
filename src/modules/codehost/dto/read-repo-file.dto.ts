import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { RefRules, RepoFilePathRules } from './codehost.rules';

/** read_repo_file: a file of the connected repository, at `ref` (default: the default branch). */
export class ReadRepoFileDto {
  @RepoFilePathRules()
  path!: string;

  @OptionalField()
  @RefRules('ref')
  ref?: string;
}
