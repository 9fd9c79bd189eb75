import { IsIn } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { FRAMEWORK_EVENT_KINDS, FrameworkEventKind } from '../time.constants';

/**
 * POST .../events: one event of an agent framework. `tool_use`, `tool_result` and `step` name
 * their tool or step in `name`; `error` and `message` carry their words in `text`.
 */
export class FrameworkEventDto {
  @IsIn(FRAMEWORK_EVENT_KINDS, { message: `kind must be one of ${FRAMEWORK_EVENT_KINDS.join(', ')}` })
  kind!: FrameworkEventKind;

  /** The session the event belongs to; without one the task is the project's alone. */
  @OptionalField()
  @Uuid()
  session_id?: string;

  /** Which framework sent it (langgraph, crewai, ...): shown at the start of the task. */
  @OptionalField()
  @BodyText('framework', 60, { notBlank: true })
  framework?: string;

  @OptionalField()
  @BodyText('name', 200, { notBlank: true })
  name?: string;

  @OptionalField()
  @BodyText('text', 10_000, { notBlank: true })
  text?: string;
}
