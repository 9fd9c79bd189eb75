/** A live file lock as clients see it (GET /projects/{id}/file-locks, the dashboard). */
export interface LockView {
  file_path: string;
  session_id: string;
  session_name: string;
  session_last_seen: string;
  claimed_at: string;
  expires_at: string;
}

/** What a forced release freed: the file and the session that held it. */
export interface ForcedRelease {
  released: true;
  file_path: string;
  session_id: string;
}
