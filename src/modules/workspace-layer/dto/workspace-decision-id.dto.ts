import { IsUUID } from 'class-validator';

export class WorkspaceDecisionIdDto {
  @IsUUID('all', { message: 'decision_id must be a UUID' })
  decision_id!: string;
}
