import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { DeviceCode } from 'oidc-provider' with { 'resolution-mode': 'import' };
import { RequestError } from '../../common/errors/request-error';
import { AuthFailureLimiter } from '../../common/rate-limit/auth-failure-limiter';
import { DeviceActivationDto } from './dto/device-activation.dto';
import { inWorkspace, OAuthGrants, PersonInWorkspace, scopesOf } from './oauth-grants.service';
import { codeEntryPage, deviceConfirmPage, deviceDonePage, NO_WORKSPACE, sendPage, sendRefusal } from './oauth-pages';
import { OAuthServer } from './oauth-server.service';
import { displayUserCode, normalizeUserCode } from './user-code.util';

/** The CSRF page name of every /activate form. */
const PAGE = 'activate';
const WRONG_CODE = 'That code is not valid, or it has expired or was already used. Check your device and try again.';

/**
 * The person's side of the device flow (RFC 8628): `/activate` takes the code a device shows,
 * shows what the device's application asks for and for which workspace (the person's current
 * one), and approves or denies it; `/oauth/device-callback` is the page after the decision.
 * Approving writes the grant into the device code, which the device's next poll of
 * /oauth/token turns into tokens; denying makes that poll answer `access_denied`. A wrong code
 * counts as a refused credential for the client's address (the limiter behind the bearer
 * token check), so codes cannot be guessed at speed.
 */
@Injectable()
export class DeviceActivation {
  constructor(
    private readonly server: OAuthServer,
    private readonly grants: OAuthGrants,
    private readonly limiter: AuthFailureLimiter,
  ) {}

  async show(userCode: unknown, req: Request, res: Response): Promise<void> {
    this.server.requireHosted();
    const given = typeof userCode === 'string' && /^[A-Za-z0-9 -]{1,32}$/.test(userCode) ? userCode : undefined;
    const person = await this.grants.personOrSignIn(req, res, given ? `/activate?user_code=${encodeURIComponent(given)}` : '/activate');
    if (!person) return;
    if (!inWorkspace(person)) return sendRefusal(req, res, 403, NO_WORKSPACE);
    const code = given ? await this.pending(given) : undefined;
    if (!code) return sendPage(res, 200, codeEntryPage(this.grants.formToken(person, PAGE), given ? WRONG_CODE : undefined));
    await this.confirm(person, code, res);
  }

  async submit(body: DeviceActivationDto, req: Request, res: Response): Promise<void> {
    this.server.requireHosted();
    const person = await this.grants.personOrSignIn(req, res, '/activate');
    if (!person) return;
    this.grants.checkForm(req, person, PAGE, body.csrf);
    if (!inWorkspace(person)) return sendRefusal(req, res, 403, NO_WORKSPACE);
    const code = await this.pending(body.user_code);
    if (!code) {
      const refusal = await this.limiter.refuse(req.ip, RequestError.notFound(WRONG_CODE), 'unknown');
      const status = refusal.retryAfterSeconds === undefined ? 400 : 429;
      if (refusal.retryAfterSeconds !== undefined) res.set('Retry-After', String(refusal.retryAfterSeconds));
      const detail = status === 429 ? refusal.detail : WRONG_CODE;
      return sendRefusal(req, res, status, detail, codeEntryPage(this.grants.formToken(person, PAGE), detail));
    }
    if (!body.decision) return this.confirm(person, code, res);
    if (body.decision === 'deny') {
      Object.assign(code, { error: 'access_denied', errorDescription: 'the person denied the device access to Baton' });
    } else {
      const scopes = scopesOf(code.params?.scope);
      const { grantId, subject } = await this.grants.grant(person, code.clientId, scopes);
      Object.assign(code, { accountId: subject, grantId, scope: scopes.join(' '), resource: this.server.mcpResource, authTime: Math.floor(Date.now() / 1000) });
    }
    await code.save();
    res.redirect(303, `/oauth/device-callback?outcome=${body.decision === 'approve' ? 'approved' : 'denied'}`);
  }

  /** The page shown after a decision. */
  done(outcome: unknown, res: Response): void {
    this.server.requireHosted();
    sendPage(res, 200, deviceDonePage(outcome === 'approved' || outcome === 'denied' ? outcome : 'unknown'));
  }

  private async confirm(person: PersonInWorkspace, code: DeviceCode & { clientId: string }, res: Response): Promise<void> {
    const summary = await this.grants.summary(person, code.clientId, scopesOf(code.params?.scope), undefined);
    sendPage(res, 200, deviceConfirmPage(this.grants.formToken(person, PAGE), displayUserCode(code.userCode), summary));
  }

  /** The device code a user code names, if it still waits for a decision. */
  private async pending(userCode: string): Promise<(DeviceCode & { clientId: string }) | undefined> {
    const normalized = normalizeUserCode(userCode);
    if (normalized.length === 0) return undefined;
    const code = await this.server.provider.DeviceCode.findByUserCode(normalized, { ignoreExpiration: true });
    if (!code?.clientId || code.isExpired || code.accountId || code.error || code.consumed) return undefined;
    return code as DeviceCode & { clientId: string };
  }
}
