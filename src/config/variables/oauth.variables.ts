import { integer } from '../config.parsers';
import { variable } from './variable';

/** Baton as an OAuth 2.1 authorization server for MCP clients and the device flow (hosted only). */
export const OAUTH_VARIABLES = {
  oauthAccessTokenS: variable({
    name: 'SERVICE_OAUTH_ACCESS_TOKEN_SECONDS',
    description: 'hosted: lifetime of an OAuth access token issued to an MCP client; the client renews it with its refresh token',
    sensitive: false,
    parse: integer(60, 86_400),
    default: 3600,
  }),
  oauthRefreshTokenS: variable({
    name: 'SERVICE_OAUTH_REFRESH_TOKEN_SECONDS',
    description: 'hosted: how long an unused OAuth refresh token stays valid; each use issues a new one with a fresh lifetime',
    sensitive: false,
    parse: integer(3600, 31_536_000),
    default: 2_592_000,
  }),
  deviceCodeS: variable({
    name: 'SERVICE_DEVICE_CODE_SECONDS',
    description: 'hosted: how long a device flow code (POST /oauth/device) waits for the person to approve it at /activate',
    sensitive: false,
    parse: integer(1, 3600),
    default: 600,
  }),
  devicePollIntervalS: variable({
    name: 'SERVICE_DEVICE_POLL_INTERVAL_SECONDS',
    description: 'hosted: the least time a device flow client waits between two polls of /oauth/token; polling sooner answers slow_down',
    sensitive: false,
    parse: integer(1, 60),
    default: 5,
  }),
  oauthRegistrationLimit: variable({
    name: 'SERVICE_OAUTH_REGISTRATION_LIMIT',
    description:
      'hosted: OAuth clients one client address may register (POST /oauth/register) per hour, and device sign-ins it may start (POST /oauth/device, /auth/tunnel-connect, /auth/hooks-connect); past it, 429',
    sensitive: false,
    parse: integer(1, 1_000_000),
    default: 20,
  }),
} as const;
