/** Task states of A2A 1.0, stored in lower case without the TASK_STATE_ prefix. */
export const A2A_TASK_STATES = ['submitted', 'working', 'input_required', 'completed', 'failed', 'canceled', 'rejected'] as const;
export type A2aTaskState = (typeof A2A_TASK_STATES)[number];

/** States a task is still open in: listed in the project's context block. */
export const A2A_OPEN_STATES: readonly A2aTaskState[] = ['submitted', 'working', 'input_required'];

export const A2A_TITLE_MAX = 200;
/** The largest message text a task may carry (all text parts together). */
export const A2A_TEXT_MAX = 20_000;
export const A2A_PARTS_MAX = 20;
export const A2A_LIST_LIMIT_DEFAULT = 50;
export const A2A_LIST_LIMIT_MAX = 200;
/** Open tasks shown in a context block. */
export const A2A_CONTEXT_LIMIT = 5;

/** JSON-RPC error codes of the A2A specification. */
export const A2A_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  unsupportedOperation: -32004,
} as const;
