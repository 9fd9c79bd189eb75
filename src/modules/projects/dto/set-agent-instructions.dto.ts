import { ValidateIf } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { AGENT_INSTRUCTIONS_MAX } from '../project-extras.constants';

/** PATCH .../agent-instructions: new instructions, or null to go back to Baton's defaults. The field is required. */
export class SetAgentInstructionsDto {
  @ValidateIf((_object, value) => value !== null)
  @BodyText('agent_instructions', AGENT_INSTRUCTIONS_MAX)
  agent_instructions!: string | null;
}
