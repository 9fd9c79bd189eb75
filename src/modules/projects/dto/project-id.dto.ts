import { Uuid } from '../../../common/validation/uuid.decorator';

/** The `{project_id}` of a route, or the `project_id` argument of a tool. */
export class ProjectIdDto {
  @Uuid()
  project_id!: string;
}
