const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The subject of an OAuth grant: a person in one workspace, `<tenant id>:<account id>`. Baton
 * grants a client access to the workspace the person approved it for, so the workspace is part
 * of who the tokens speak for: the same person approving the same client for another workspace
 * is another subject, with its own grant and tokens.
 */
export function subjectOf(tenantId: string, accountId: string): string {
  return `${tenantId}:${accountId}`;
}

/** The parts of a subject written by `subjectOf`, or undefined for anything else. */
export function parseSubject(subject: unknown): { tenantId: string; accountId: string } | undefined {
  if (typeof subject !== 'string') return undefined;
  const [tenantId, accountId, ...rest] = subject.split(':');
  if (rest.length > 0 || !tenantId || !accountId || !UUID.test(tenantId) || !ACCOUNT_ID.test(accountId)) return undefined;
  return { tenantId, accountId };
}

/** The workspace (tenant id) a subject speaks for. */
export function tenantOfSubject(subject: unknown): string | undefined {
  return parseSubject(subject)?.tenantId;
}
