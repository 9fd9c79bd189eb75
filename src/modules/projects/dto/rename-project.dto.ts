import { ProjectNameRules } from './project-name.rules';

export class RenameProjectDto {
  @ProjectNameRules()
  name!: string;
}
