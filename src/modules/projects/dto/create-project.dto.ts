import { ProjectNameRules } from './project-name.rules';

export class CreateProjectDto {
  /** Unique within the workspace, compared without regard to case. */
  @ProjectNameRules()
  name!: string;
}
