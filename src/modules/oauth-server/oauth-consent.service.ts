import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Interaction } from 'oidc-provider' with { 'resolution-mode': 'import' };
import { ConsentDecisionDto } from './dto/consent-decision.dto';
import { inWorkspace, OAuthGrants, scopesOf } from './oauth-grants.service';
import { consentPage, NO_WORKSPACE, sendPage, sendRefusal } from './oauth-pages';
import { INTERACTION_PATH } from './oauth-server.constants';
import { OAuthServer } from './oauth-server.service';

const GONE = 'This sign-in request has expired or was already answered. Go back to your application and connect again.';

/**
 * The login and consent step of an authorization request (`/oauth/interaction/<uid>`), which
 * oidc-provider sends the browser to. A person not signed in to Baton is sent to sign in and
 * back; a signed-in person sees which application asks, where it returns to, what it may do and
 * for which workspace (their current one), and allows or denies. Allowing answers both of the
 * provider's prompts at once: login (the person in that workspace) and consent (a new grant).
 */
@Injectable()
export class OAuthConsent {
  constructor(
    private readonly server: OAuthServer,
    private readonly grants: OAuthGrants,
  ) {}

  async show(uid: string, req: Request, res: Response): Promise<void> {
    this.server.requireHosted();
    const interaction = await this.interaction(uid, req, res);
    if (!interaction) return;
    const person = await this.grants.personOrSignIn(req, res, `${INTERACTION_PATH}/${uid}`);
    if (!person) return;
    if (!inWorkspace(person)) return sendRefusal(req, res, 403, NO_WORKSPACE);
    const { params } = interaction;
    const summary = await this.grants.summary(person, String(params.client_id), scopesOf(params.scope), params.redirect_uri);
    sendPage(res, 200, consentPage(`${INTERACTION_PATH}/${uid}`, this.grants.formToken(person, uid), summary));
  }

  async decide(uid: string, body: ConsentDecisionDto, req: Request, res: Response): Promise<void> {
    this.server.requireHosted();
    const interaction = await this.interaction(uid, req, res);
    if (!interaction) return;
    const person = await this.grants.personOrSignIn(req, res, `${INTERACTION_PATH}/${uid}`);
    if (!person) return;
    this.grants.checkForm(req, person, uid, body.csrf);
    if (!inWorkspace(person)) return sendRefusal(req, res, 403, NO_WORKSPACE);
    const provider = this.server.provider;
    if (body.decision === 'deny') {
      const result = { error: 'access_denied', error_description: 'the person denied the application access to Baton' };
      return res.redirect(303, await provider.interactionResult(req, res, result, { mergeWithLastSubmission: false }));
    }
    const { grantId, subject } = await this.grants.grant(person, String(interaction.params.client_id), scopesOf(interaction.params.scope));
    const result = { login: { accountId: subject, remember: false }, consent: { grantId } };
    res.redirect(303, await provider.interactionResult(req, res, result, { mergeWithLastSubmission: false }));
  }

  /**
   * The pending request this browser's interaction cookie names, if it is the one in the URL;
   * otherwise the "expired" page is sent (a request answered, expired, or opened in another browser).
   */
  private async interaction(uid: string, req: Request, res: Response): Promise<Interaction | undefined> {
    try {
      const interaction = await this.server.provider.interactionDetails(req, res);
      if (interaction.uid === uid && !interaction.result) return interaction;
    } catch (error) {
      if ((error as { name?: string }).name !== 'SessionNotFound') throw error;
    }
    sendRefusal(req, res, 400, GONE);
    return undefined;
  }
}
