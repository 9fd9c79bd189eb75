import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { DeviceCode } from 'oidc-provider' with { 'resolution-mode': 'import' };
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiTokens } from '../tenants/api-tokens.service';
import { inWorkspace, OAuthGrants, PersonInWorkspace } from './oauth-grants.service';
import { installPage, NO_WORKSPACE, sendPage, sendRefusal } from './oauth-pages';
import { OAuthServerError } from './oauth-server.errors';
import { CONNECTOR_CLIENTS, ConnectorKind, MCP_SCOPE, OAUTH_ROUTES } from './oauth-server.constants';
import { OAuthServer } from './oauth-server.service';
import { parseSubject } from './oauth-subject.util';
import { displayUserCode, newUserCode } from './user-code.util';

/** What a connector shows the person and how it polls: the fields of RFC 8628's device authorization answer. */
export interface ConnectorStart {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** A connector's API token, shown once. */
export interface ConnectorToken {
  token: string;
  tenant_id: string;
  name: ConnectorKind;
}

/**
 * Sign-in of Baton's own connectors (the tunnel, the assistant hooks) by the device flow, ending
 * in an `sk_service_` API token for the workspace the person approved, named after the connector
 * (`tunnel`, `hooks`) and shown once. The connector starts with /auth/tunnel-connect or
 * /auth/hooks-connect, shows the code, and polls; the person approves at /activate like any
 * device. Connector codes cannot be redeemed at /oauth/token (their clients have no grant type
 * there), and the grant the approval made is dropped once the API token exists.
 */
@Injectable()
export class ConnectorSignIn {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly server: OAuthServer,
    private readonly tokens: ApiTokens,
    private readonly grants: OAuthGrants,
  ) {}

  /** GET /auth/install: for the signed-in person (else to sign-in and back), a page with a fresh install token. */
  async installPage(req: Request, res: Response): Promise<void> {
    this.server.requireHosted();
    const person = await this.grants.personOrSignIn(req, res, '/auth/install');
    if (!person) return;
    if (!inWorkspace(person)) return sendRefusal(req, res, 403, NO_WORKSPACE);
    const started = await this.installToken(person, req);
    const { workspaceName } = await this.grants.summary(person, CONNECTOR_CLIENTS.hooks.client_id, [MCP_SCOPE], undefined);
    sendPage(res, 200, installPage(`${this.server.issuer}/auth/hooks-status`, started.device_code, Math.round(started.expires_in / 60), workspaceName));
  }

  /**
   * An install token for a machine's hooks (GET /auth/install): a hooks device code already
   * approved by `person`, for their current workspace. The machine redeems it once at
   * /auth/hooks-status within the device-code lifetime, as if the person had approved it at
   * /activate.
   */
  async installToken(person: PersonInWorkspace, req: Request): Promise<ConnectorStart> {
    const started = await this.start('hooks', req);
    const code = await this.server.provider.DeviceCode.find(started.device_code);
    if (!code) throw new Error('the device code just made is missing');
    const { grantId, subject } = await this.grants.grant(person, CONNECTOR_CLIENTS.hooks.client_id, [MCP_SCOPE]);
    Object.assign(code, { accountId: subject, grantId, scope: MCP_SCOPE, resource: this.server.mcpResource, authTime: Math.floor(Date.now() / 1000) });
    await code.save();
    return started;
  }

  async start(kind: ConnectorKind, req: Request): Promise<ConnectorStart> {
    this.server.requireHosted();
    const provider = this.server.provider;
    const { client_id } = CONNECTOR_CLIENTS[kind];
    const client = await provider.Client.find(client_id);
    if (!client) throw new Error(`the ${client_id} client is missing from the authorization server's configuration`);
    const userCode = newUserCode();
    // As oidc-provider's own device authorization builds it: no grant yet (the typings ask for one that does not exist until approval).
    const code = new provider.DeviceCode({
      client,
      userCode,
      params: { client_id, scope: MCP_SCOPE },
      deviceInfo: { ip: req.ip, ua: String(req.headers['user-agent'] ?? '').slice(0, 300) },
    } as unknown as ConstructorParameters<typeof provider.DeviceCode>[0]);
    const deviceCode = await code.save();
    const verification = `${this.server.issuer}${OAUTH_ROUTES.code_verification}`;
    return {
      device_code: deviceCode,
      user_code: displayUserCode(userCode),
      verification_uri: verification,
      verification_uri_complete: `${verification}?user_code=${encodeURIComponent(displayUserCode(userCode))}`,
      expires_in: this.config.deviceCodeS,
      interval: this.config.devicePollIntervalS,
    };
  }

  /**
   * One poll: the API token once the person approved (once only), `undefined` while they have
   * not; refused when polled too fast, denied, expired, unknown or already redeemed.
   */
  async redeem(kind: ConnectorKind, deviceCode: string): Promise<ConnectorToken | undefined> {
    this.server.requireHosted();
    const provider = this.server.provider;
    const code = await provider.DeviceCode.find(deviceCode, { ignoreExpiration: true });
    if (!code || code.clientId !== CONNECTOR_CLIENTS[kind].client_id || code.consumed) throw OAuthServerError.unknown();
    if (code.isExpired) throw OAuthServerError.expired();
    if (code.error) throw OAuthServerError.denied();
    if (!code.accountId) {
      if ((await this.server.store.pollDeviceCode(deviceCode, this.config.devicePollIntervalS)) === 'too-soon') throw OAuthServerError.slowDown(this.config.devicePollIntervalS);
      return undefined;
    }
    const subject = parseSubject(code.accountId);
    if (!subject || !(await this.server.store.claimDeviceCode(deviceCode))) throw OAuthServerError.unknown();
    // Made for the person who approved it, so it ends when they leave the workspace.
    const token = await this.tokens.createToken(subject.tenantId, kind, { createdBy: subject.accountId });
    this.tokens.changed(subject.tenantId);
    await this.forget(code);
    return { token, tenant_id: subject.tenantId, name: kind };
  }

  /** The tunnel's answer while the person has not decided. */
  pending(): never {
    throw OAuthServerError.pending();
  }

  /** The code and its grant have done their work: the API token is the connector's credential now. */
  private async forget(code: DeviceCode): Promise<void> {
    const grant = code.grantId ? await this.server.provider.Grant.find(code.grantId) : undefined;
    await grant?.destroy();
    await code.destroy();
  }
}
