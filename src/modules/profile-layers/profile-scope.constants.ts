/** The five scopes, least specific first: resolution applies them in this order. */
export const PROFILE_SCOPES = ['hosted_default', 'workspace', 'user', 'project', 'session'] as const;
export type ProfileScope = (typeof PROFILE_SCOPES)[number];

/** Lifecycle of hosted_default layers; other scopes have none (their status is null). */
export const LAYER_STATUSES = ['draft', 'active', 'deprecated', 'retired'] as const;
export type LayerStatus = (typeof LAYER_STATUSES)[number];

/** hosted_default layers that take part in resolution. */
export const LIVE_STATUSES: readonly LayerStatus[] = ['active', 'deprecated'];

/** The hosted_default a workspace resolves against unless it selects another. */
export const GLOBAL_DEFAULT_ID = 'global';

/** The one workspace layer of a tenant. */
export const WORKSPACE_SINGLETON = 'singleton';

/** Ids an operator may give a hosted_default layer. */
export const HOSTED_DEFAULT_ID = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export const RESTART_COMPONENTS = ['tunnel', 'connector', 'capability', 'general'] as const;
export type RestartComponent = (typeof RESTART_COMPONENTS)[number];

/** What a change needs before it takes effect, from nothing to a restart. */
export const RESTART_LEVELS = ['none', 'hot_reload', 'explicit_refresh_required', 'restart_required'] as const;
export type RestartLevel = (typeof RESTART_LEVELS)[number];

export type RestartReport = Record<RestartComponent, RestartLevel>;

export const MAX_REVISIONS_PAGE = 500;
export const DEFAULT_REVISIONS_PAGE = 50;
