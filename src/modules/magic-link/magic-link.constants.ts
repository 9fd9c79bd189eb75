/** How long a magic link signs in after it was requested. */
export const MAGIC_LINK_TTL_MS = 15 * 60 * 1000;

/** The window of both request limits below. */
export const MAGIC_LINK_WINDOW_MS = 15 * 60 * 1000;
/** Links requested for one address per window. */
export const MAGIC_LINKS_PER_ADDRESS = 5;
/** Links requested from one client address (an IPv6 client by its /64) per window. */
export const MAGIC_LINKS_PER_CLIENT = 20;

/** Links past their expiry are deleted once this much older, by the next request that sweeps. */
export const MAGIC_LINK_KEEP_MS = 24 * 60 * 60 * 1000;
