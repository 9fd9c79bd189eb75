import { DecisionLogEntry } from './decision-log-entry.entity';

export interface DecisionLogEntryView {
  id: string;
  project_id: string;
  title: string;
  body: string;
  human_id: string | null;
  session_id: string | null;
  created_at: string;
  /** The entry this one was consolidated into, or null. */
  superseded_by_id: string | null;
}

export function toDecisionLogEntryView(entry: DecisionLogEntry): DecisionLogEntryView {
  return { ...entry, created_at: entry.created_at.toISOString() };
}
