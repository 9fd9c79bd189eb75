export const CONTEXT_MODES = ['full', 'brief'] as const;
export type ContextMode = (typeof CONTEXT_MODES)[number];

/** A brief block: the first lines of each section, for a quick reminder. */
export const BRIEF_MAX_BYTES = 2048;
export const BRIEF_LINES_PER_SECTION = 3;
export const BRIEF_LINE_CHARS = 160;
/** No one line (a long note, say) may take more than this much of the block. */
export const FULL_LINE_CHARS = 300;
/** The "sessions" section: active sessions, after the other modules' sections. */
export const SESSIONS_SECTION_ORDER = 60;
export const SESSIONS_SECTION_LIMIT = 20;
