import { DevlogEntry } from './devlog-entry.entity';

export interface DevlogEntryView {
  id: string;
  project_id: string;
  entry: string;
  human_id: string | null;
  session_id: string | null;
  created_at: string;
}

export function toDevlogEntryView(entry: DevlogEntry): DevlogEntryView {
  return { ...entry, created_at: entry.created_at.toISOString() };
}
