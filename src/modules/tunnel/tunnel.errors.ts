import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum TunnelErrorCode {
  Invalid = 'TUNNEL_INVALID',
  NotFound = 'TUNNEL_NOT_FOUND',
  Conflict = 'TUNNEL_CONFLICT',
  SelfHostedOnly = 'TUNNEL_SELF_HOSTED_ONLY',
  NotConnected = 'TUNNEL_NOT_CONNECTED',
  NoConnector = 'TUNNEL_NO_CONNECTOR',
  Upstream = 'TUNNEL_UPSTREAM_FAILED',
  Timeout = 'TUNNEL_TIMEOUT',
}

const STATUS: StatusTable<TunnelErrorCode> = {
  [TunnelErrorCode.Invalid]: HttpStatus.BAD_REQUEST,
  [TunnelErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [TunnelErrorCode.Conflict]: HttpStatus.CONFLICT,
  [TunnelErrorCode.SelfHostedOnly]: HttpStatus.FORBIDDEN,
  [TunnelErrorCode.NotConnected]: HttpStatus.SERVICE_UNAVAILABLE,
  [TunnelErrorCode.NoConnector]: HttpStatus.CONFLICT,
  [TunnelErrorCode.Upstream]: HttpStatus.BAD_GATEWAY,
  [TunnelErrorCode.Timeout]: HttpStatus.GATEWAY_TIMEOUT,
};

export class TunnelError extends DomainErrorOf(STATUS) {
  static invalid(detail: string) {
    return new TunnelError(TunnelErrorCode.Invalid, detail);
  }

  static notFound(detail: string) {
    return new TunnelError(TunnelErrorCode.NotFound, detail);
  }

  /** Another workspace's id answers exactly like one that does not exist. */
  static tenantNotFound(id: string) {
    return new TunnelError(TunnelErrorCode.NotFound, `tenant not found: ${id}`);
  }

  static conflict(detail: string) {
    return new TunnelError(TunnelErrorCode.Conflict, detail);
  }

  static selfHostedOnly(what: string) {
    return new TunnelError(TunnelErrorCode.SelfHostedOnly, `${what} runs only on a self-hosted Baton: hosted Baton never runs commands for a workspace`);
  }

  static notConnected(detail: string) {
    return new TunnelError(TunnelErrorCode.NotConnected, detail);
  }

  /** A route that talks to the connector (refresh), while none is connected: the workspace's state, not Baton's failure. */
  static noConnector(detail: string) {
    return new TunnelError(TunnelErrorCode.NoConnector, detail);
  }

  static upstream(detail: string) {
    return new TunnelError(TunnelErrorCode.Upstream, detail);
  }

  static timeout(detail: string) {
    return new TunnelError(TunnelErrorCode.Timeout, detail);
  }
}
