/** How long one request to the code host may take before Baton gives up on it. */
export const CODEHOST_REQUEST_TIMEOUT_MS = 15_000;

/** Attempts of one request when the code host answers that its rate limit is reached (the first included). */
export const CODEHOST_RATE_LIMIT_ATTEMPTS = 3;

/** The longest rate-limit wait Baton sits through inside a request; a longer one is answered as 429 at once. */
export const CODEHOST_MAX_RATE_LIMIT_WAIT_MS = 20_000;

/** Pages followed (Link rel="next") when gathering a list; 100 items each. */
export const CODEHOST_MAX_PAGES = 10;
export const CODEHOST_PAGE_SIZE = 100;

/** Where push-mcp-template writes by default. */
export const DEFAULT_MCP_TEMPLATE_PATH = '.mcp.json';

/** Workflow runs listed by default and at most. */
export const DEFAULT_WORKFLOW_RUNS = 20;
export const MAX_WORKFLOW_RUNS = 100;

/** Largest file read_repo_file returns or patch_file writes (characters). */
export const MAX_REPO_FILE_CHARS = 1_000_000;
