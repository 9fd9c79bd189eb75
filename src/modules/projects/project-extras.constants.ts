export const ORGANIZATION_STATUSES = ['active', 'parked', 'archived'] as const;
/** Where a project stands for the people organising their work: active, parked (paused) or archived. */
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

export const AGENT_INSTRUCTIONS_MAX = 64_000;
/** Editable markdown files of a project. */
export const PROJECT_FILE_MAX_CHARS = 512 * 1024;
export const PROJECT_FILES_MAX = 200;
/** A plain file name ending in .md: no folders, no `..`, nothing hidden. */
export const PROJECT_FILENAME = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._-]{0,96}\.md$/i;
/** README files are edited by people: update_md_section refuses them. */
export const README_FILENAME = /^readme(\.|$)/i;
/** A section name inside anchor comments. */
export const SECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** The assistants' instruction files: with a local checkout (executor_config.repo_path) update_md_section edits the committed file. */
export const INSTRUCTION_FILENAMES = ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md'] as const;
