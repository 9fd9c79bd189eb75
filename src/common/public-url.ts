import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/** Addresses that mean "every interface": a link needs a name a browser can open instead. */
const ANY_ADDRESS = new Set(['0.0.0.0', '::', '::ffff:0.0.0.0']);

/**
 * The address people and clients reach this instance at, for links Baton writes (the MCP quick
 * start, hook URLs, notification links): `APP_URL` when it is set, else the host and port this
 * process actually listens on (a port chosen with SERVICE_PORT or picked by the system), not
 * the default `http://localhost:7878`.
 */
@Injectable()
export class PublicUrl {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  get base(): string {
    if (this.config.explicitlySet.has('APP_URL')) return this.config.baseUrl.replace(/\/+$/, '');
    const address = this.adapterHost.httpAdapter?.getHttpServer()?.address() as AddressInfo | string | null | undefined;
    if (!address || typeof address === 'string') return this.config.baseUrl.replace(/\/+$/, '');
    const host = ANY_ADDRESS.has(address.address) ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  /** `path` (starting with /) on this instance. */
  to(path: string): string {
    return `${this.base}${path}`;
  }
}
