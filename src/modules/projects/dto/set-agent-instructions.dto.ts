import { ValidateIf } from 'class-validator';
import { BodyRules } from '../../tasks/dto/field.rules';
import { AGENT_INSTRUCTIONS_MAX } from '../project-extras.constants';

/** PATCH .../agent-instructions: new instructions, or null to go back to Baton's defaults. The field is required. */
export class SetAgentInstructionsDto {
  @ValidateIf((_object, value) => value !== null)
  @BodyRules('agent_instructions', AGENT_INSTRUCTIONS_MAX)
  agent_instructions!: string | null;
}
