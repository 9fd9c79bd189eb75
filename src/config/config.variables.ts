import { ACCOUNTS_VARIABLES } from './variables/accounts.variables';
import { ADMIN_VARIABLES } from './variables/admin.variables';
import { AI_LOG_VARIABLES } from './variables/ai-log.variables';
import { CACHE_VARIABLES } from './variables/cache.variables';
import { DATABASE_VARIABLES } from './variables/database.variables';
import { EXECUTOR_VARIABLES } from './variables/executor.variables';
import { HOSTED_VARIABLES } from './variables/hosted.variables';
import { LLM_VARIABLES } from './variables/llm.variables';
import { MCP_VARIABLES } from './variables/mcp.variables';
import { NOTIFICATION_VARIABLES } from './variables/notifications.variables';
import { OAUTH_VARIABLES } from './variables/oauth.variables';
import { SERVER_VARIABLES } from './variables/server.variables';
import { SIGN_IN_VARIABLES } from './variables/sign-in.variables';
import { TUNNEL_VARIABLES } from './variables/tunnel.variables';
import { WORK_VARIABLES } from './variables/work.variables';

export { DEV_SESSION_SECRET, type VariableSpec } from './variables/variable';

/**
 * Every environment variable Baton reads, with its default: the one list the
 * configuration class, GET /config and the docs read. Names and defaults
 * follow the service specification (sections 1, 5, 6 and 9); each subject
 * keeps its variables in its own file under `variables/`.
 */
export const VARIABLES = {
  ...SERVER_VARIABLES,
  ...DATABASE_VARIABLES,
  ...CACHE_VARIABLES,
  ...HOSTED_VARIABLES,
  ...ACCOUNTS_VARIABLES,
  ...SIGN_IN_VARIABLES,
  ...ADMIN_VARIABLES,
  ...NOTIFICATION_VARIABLES,
  ...WORK_VARIABLES,
  ...EXECUTOR_VARIABLES,
  ...AI_LOG_VARIABLES,
  ...MCP_VARIABLES,
  ...OAUTH_VARIABLES,
  ...LLM_VARIABLES,
  ...TUNNEL_VARIABLES,
} as const;

export type Variables = typeof VARIABLES;
