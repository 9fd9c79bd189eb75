import { BodyText } from '../../../common/validation/body-text.decorator';
import { RequiredOrNull } from '../../../common/validation/required-or-null.decorator';
import { AGENT_INSTRUCTIONS_MAX } from '../project-extras.constants';

/** PATCH .../agent-instructions: new instructions, or null to go back to Baton's defaults. The field is required. */
export class SetAgentInstructionsDto {
  @RequiredOrNull()
  @BodyText('agent_instructions', AGENT_INSTRUCTIONS_MAX)
  agent_instructions!: string | null;
}
