import type { CookieOptions, Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';

/**
 * The web-session cookie: signed with SESSION_SECRET (cookie-parser), HttpOnly,
 * SameSite=Lax (a person arriving from a provider's redirect is still signed
 * in), Path=/; over HTTPS it is Secure and named with the `__Host-` prefix, which
 * browsers accept only from a secure origin without a Domain.
 */
export function sessionCookieName(config: AppConfig): string {
  return isHttps(config) ? '__Host-baton_session' : 'baton_session';
}

export function sessionCookieOptions(config: AppConfig, expires?: Date): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: isHttps(config), path: '/', signed: true, ...(expires ? { expires } : {}) };
}

/** The session secret the request's cookie carries, if it is there and its signature holds. */
export function sessionSecretOf(req: Request, config: AppConfig): string | undefined {
  const value = (req.signedCookies as Record<string, unknown> | undefined)?.[sessionCookieName(config)];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function clearSessionCookie(res: Response, config: AppConfig): void {
  const { expires: _expires, ...options } = sessionCookieOptions(config);
  res.clearCookie(sessionCookieName(config), { ...options, signed: false });
}

function isHttps(config: AppConfig): boolean {
  return config.baseUrl.startsWith('https:');
}
