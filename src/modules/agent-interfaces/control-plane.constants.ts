export const CONTROL_PLANE_LIMIT_DEFAULT = 50;
export const CONTROL_PLANE_LIMIT_MAX = 200;

/** The most rows one view reads from a source before paging: views are summaries, not exports. */
export const CONTROL_PLANE_SOURCE_MAX = 5000;
