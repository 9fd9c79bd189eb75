import type { SessionView } from '../../modules/sessions/session.view';

/** `session.started`: a session was registered (SessionsService.register, which start_session uses). */
export type SessionStartedEvent = {
  session: SessionView;
};

/** `handoff.corrected`: a correction of a project's handoff was stored. */
export type HandoffCorrectedEvent = {
  project_id: string;
  session_id: string | null;
  correction_id: string;
  summary: string;
};

/** `documents.structure_viewed`: a project's document structure was read (a peek: nothing was saved). */
export type DocumentStructureViewedEvent = {
  project_id: string;
  /** Who looked: an account id, or `token`, `mcp`, `local`. */
  viewer: string;
  via: 'rest' | 'mcp';
  document_count: number;
};

/** `sprint_item.verified`: a session recorded a verification (a pass, or a failure with its note) of a sprint item. */
export type SprintItemVerifiedEvent = {
  project_id: string;
  session_id: string;
  item_id: string;
  item_slug: string;
  passed: boolean;
  note: string | null;
  verified_at: string;
};

/** `session.notified`: a session lost a file lock or a claim and is owed a notice (a message wakes it). */
export type SessionNotifiedEvent = {
  project_id: string;
  session_id: string;
  notice: { kind: string; detail: string; at: string };
};

/**
 * Every domain event Baton emits, by name, with the payload its handlers receive. DomainEvents
 * accepts only these names and these payloads, so a misspelt event or a payload of the wrong
 * shape fails to compile instead of reaching no handler. A new event is one more line here.
 */
export interface DomainEventMap {
  'session.started': SessionStartedEvent;
  'handoff.corrected': HandoffCorrectedEvent;
  'documents.structure_viewed': DocumentStructureViewedEvent;
  'sprint_item.verified': SprintItemVerifiedEvent;
  'session.notified': SessionNotifiedEvent;
}

export type DomainEventName = keyof DomainEventMap;
