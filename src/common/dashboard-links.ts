/** The dashboard pages Baton's notifications and e-mails link to (paths of apps/dashboard/src/router.ts), for PublicUrl.to. */
export const dashboardPages = {
  /** The project's HITL inbox, where a pending question is answered. */
  hitl: (projectId: string) => `/dashboard/projects/${encodeURIComponent(projectId)}/hitl`,
  /** The project's settings, where its notifications are set up. */
  settings: (projectId: string) => `/dashboard/projects/${encodeURIComponent(projectId)}/settings`,
};
