import { hostname, userInfo } from 'node:os';

/**
 * Who a session belongs to when the caller does not say: SERVICE_HUMAN_ID,
 * then the operating-system user running Baton, then the host name.
 */
export function defaultHumanId(configured: string | undefined): string {
  if (configured) return configured;
  try {
    const user = userInfo().username;
    if (user) return user;
  } catch {
    // no passwd entry (some containers): fall through to the host name
  }
  return hostname();
}
