import { IsUUID } from 'class-validator';
import { BodyRules, OptionalField, TitleRules } from '../../tasks/dto/field.rules';
import { DECISION_BODY_MAX, NOTE_TITLE_MAX } from '../../notes/notes.constants';

/**
 * POST /workspace/decisions (set_workspace_decision). An active decision with
 * the same title (any case) is superseded by this one; `supersedes` names the
 * decision to replace explicitly (for a new title).
 */
export class SetWorkspaceDecisionDto {
  @TitleRules('title', NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyRules('body', DECISION_BODY_MAX)
  body?: string;

  @OptionalField()
  @IsUUID('all', { message: 'supersedes must be a UUID' })
  supersedes?: string;
}
