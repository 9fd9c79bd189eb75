import { SetMetadata } from '@nestjs/common';

export const CHECKS_READ_SCOPE = 'baton:checks-read-scope';

/**
 * Marks a route a read-scope API token may call whatever its HTTP method,
 * because the route itself refuses what would change state (`POST /mcp`
 * runs only read-only tools for such a token). Every other route refuses a
 * read-scope token on any method but GET, HEAD and OPTIONS.
 */
export const ChecksReadScope = () => SetMetadata(CHECKS_READ_SCOPE, true);
