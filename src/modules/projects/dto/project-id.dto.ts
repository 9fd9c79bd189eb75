import { IsUUID } from 'class-validator';

/** The `{project_id}` of a route, or the `project_id` argument of a tool. */
export class ProjectIdDto {
  @IsUUID('all', { message: 'project_id must be a UUID' })
  project_id!: string;
}
