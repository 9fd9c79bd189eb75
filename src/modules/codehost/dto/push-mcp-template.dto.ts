import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { RefRules, RepoFilePathRules } from './codehost.rules';

/** POST .../codehost/push-mcp-template: where the MCP configuration file goes (default `.mcp.json` on the default branch). */
export class PushMcpTemplateDto {
  @OptionalField()
  @RepoFilePathRules()
  path?: string;

  @OptionalField()
  @RefRules('branch')
  branch?: string;

  @OptionalField()
  @Title('message', 500)
  message?: string;
}
