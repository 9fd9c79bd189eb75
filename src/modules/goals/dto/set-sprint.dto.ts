import { SprintLabelRules } from './goal-field.rules';

export class SetSprintDto {
  @SprintLabelRules()
  sprint!: string;
}
