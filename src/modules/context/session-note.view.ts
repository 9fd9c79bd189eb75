import { SessionNote } from './session-note.entity';

export interface SessionNoteView {
  id: string;
  session_id: string;
  project_id: string;
  body: string;
  created_at: string;
}

export function toSessionNoteView(note: SessionNote): SessionNoteView {
  return {
    id: note.id,
    session_id: note.session_id,
    project_id: note.project_id,
    body: note.body,
    created_at: note.created_at.toISOString(),
  };
}
