import { OptionalAgentName, OptionalSessionId } from './message-fields.rules';

/** Who reads: a session (session_id) or a named agent (agent), exactly one. */
export class ReaderDto {
  @OptionalSessionId()
  session_id?: string;

  @OptionalAgentName('agent')
  agent?: string;
}
