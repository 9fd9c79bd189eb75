import { SetMetadata } from '@nestjs/common';

export const PROJECT_TOKEN_ROUTE = 'baton:project-token-route';

/** The prefix each kind of project token begins with. */
export const PROJECT_TOKEN_PREFIXES = { webhook: 'bwh_', rewind: 'brw_' } as const;
export type ProjectTokenKind = keyof typeof PROJECT_TOKEN_PREFIXES;

/**
 * Marks a project route that also takes a project token of `kind` in place of the workspace's
 * credentials. The tenant guard leaves such a request to the route's own ProjectTokenGuard, which
 * checks the token against the project of the path.
 */
export const ProjectTokenRoute = (kind: ProjectTokenKind) => SetMetadata(PROJECT_TOKEN_ROUTE, kind);

/** The header a CI job or framework may put the webhook token in instead of Authorization. */
export const WEBHOOK_TOKEN_HEADER = 'x-webhook-token';

interface TokenBearingRequest {
  headers: Record<string, string | string[] | undefined>;
  query?: unknown;
}

/**
 * The project token a request presents, the first with `kind`'s prefix of: `Authorization: Bearer`; for a webhook token, the `X-Webhook-Token` header, and for a rewind token the
 * `token` query parameter (a rewind token is a link to share; a webhook token writes, and a query
 * string ends up in proxies' and servers' logs, so it is never read from there).
 */
export function presentedProjectToken(request: TokenBearingRequest, kind: ProjectTokenKind): string | undefined {
  const candidates = [bearerOf(request), kind === 'webhook' ? headerOf(request, WEBHOOK_TOKEN_HEADER) : queryToken(request)];
  return candidates.find((token) => token?.startsWith(PROJECT_TOKEN_PREFIXES[kind]));
}

/** Whether the request tries a project token of `kind` at all (any value in the places it is read from). */
export function triesProjectToken(request: TokenBearingRequest, kind: ProjectTokenKind): boolean {
  if (presentedProjectToken(request, kind)) return true;
  return kind === 'webhook' && headerOf(request, WEBHOOK_TOKEN_HEADER) !== undefined;
}

function bearerOf(request: TokenBearingRequest): string | undefined {
  return headerOf(request, 'authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

function headerOf(request: TokenBearingRequest, name: string): string | undefined {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.trim();
}

function queryToken(request: TokenBearingRequest): string | undefined {
  const query = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof query === 'string' ? query : undefined;
}
