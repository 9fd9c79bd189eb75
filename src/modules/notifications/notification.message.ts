/** What every notification carries: the original's `{title, body, event, source}` plus ids a receiver can act on. */
export interface NotificationMessage {
  title: string;
  body: string;
  event: string;
  source: 'baton';
  [key: string]: unknown;
}

/** ntfy-style headers, so an ntfy topic URL shows a title and priority; other receivers ignore them. */
export function ntfyHeaders(message: NotificationMessage, priority: 'default' | 'high' | 'urgent' = 'default'): Record<string, string> {
  // Header values must be Latin-1: anything else is dropped rather than failing the request.
  const title = message.title.replace(/[^\x20-\x7e]/g, '?');
  return { title, priority, tags: 'baton' };
}
