import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModuleOptions, ThrottlerStorage, getOptionsToken, getStorageToken } from '@nestjs/throttler';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { bearerToken, hashApiToken } from '../modules/tenants/api-token.util';

/**
 * 100 MCP requests per minute per token (hosted). The key is the token's hash,
 * never the token. Self-hosted instances have no tokens and no limit.
 */
@Injectable()
export class McpThrottlerGuard extends ThrottlerGuard {
  constructor(
    @Inject(getOptionsToken()) options: ThrottlerModuleOptions,
    @Inject(getStorageToken()) storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(options, storage, reflector);
  }

  protected override async shouldSkip(_context: ExecutionContext): Promise<boolean> {
    return !this.config.isHosted;
  }

  protected override async getTracker(request: Request): Promise<string> {
    const token = bearerToken(request.headers.authorization);
    return token ? `mcp:token:${hashApiToken(token)}` : `mcp:ip:${request.ip}`;
  }
}
