import { IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { RefRules } from './codehost.rules';

/** trigger_workflow: dispatches a workflow (its file name or id) on `ref` (default: the default branch). */
export class TriggerWorkflowDto {
  @IsString({ message: 'workflow must be a string' })
  @MaxLength(255, { message: 'workflow must be at most 255 characters' })
  @Matches(/^[A-Za-z0-9._-]+$/, { message: 'workflow must be a workflow file name (ci.yml) or id' })
  workflow!: string;

  @OptionalField()
  @RefRules('ref')
  ref?: string;

  @OptionalField()
  @ValidateBy({ name: 'workflowInputs', validator: { validate: isWorkflowInputs, defaultMessage: () => INPUTS_MESSAGE } })
  inputs?: Record<string, string>;
}

const INPUTS_MESSAGE = 'inputs must be an object of at most 10 text values (names of letters, digits, "_" and "-"; values up to 1000 characters)';

function isWorkflowInputs(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length <= 10 && entries.every(([name, text]) => /^[A-Za-z0-9_-]{1,100}$/.test(name) && typeof text === 'string' && text.length <= 1000);
}
