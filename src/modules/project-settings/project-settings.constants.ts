export const EXECUTION_MODES = ['interactive', 'autonomous'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

export interface ExecutorConfig {
  repo_path?: string;
  test_min?: number;
  test_command?: string;
  max_parallel?: number;
  /** The checkout's file system ignores case: file locks and declared files are keyed in lower case. */
  case_insensitive_paths?: boolean;
}

export interface ProjectSettings {
  max_pinned_decisions: number;
  hitl_auto_answer: boolean;
  auto_worktrees: boolean;
  require_merge_approval: boolean;
  code_intel_enabled: boolean;
  execution_mode: ExecutionMode;
  executor_config: ExecutorConfig;
}

/** What a project without stored settings gets. */
export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = {
  max_pinned_decisions: 20,
  hitl_auto_answer: false,
  auto_worktrees: false,
  require_merge_approval: false,
  code_intel_enabled: true,
  execution_mode: 'autonomous',
  executor_config: {},
};
