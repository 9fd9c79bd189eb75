import { ProjectIdDto } from './project-id.dto';
import { FilenameRules } from './filename.rules';

export class FileParamsDto extends ProjectIdDto {
  @FilenameRules()
  filename!: string;
}
