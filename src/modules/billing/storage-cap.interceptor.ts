import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { maybeCurrentTenant } from '../../../libs/tenancy';
import { IS_PUBLIC } from '../../common/auth/public.decorator';
import { UsageMeter } from './usage-meter.service';

/**
 * Where a write adds no project data, or must stay open to lift the cap: MCP (its tools pass the
 * gates one by one), usage, billing, sign-in, people, and a message receive (a long-poll that only
 * moves the reader's cursor: left without the interceptor, a waiting request holds less).
 */
export const NOT_CAPPED = /^\/(mcp|settings\/usage|billing|checkout|auth|me|account|workspace\/(invite|members|accept)|projects\/[^/]+\/messages\/receive$)(\/|$)/;

/**
 * Refuses a workspace's REST writes that add data (POST, PUT, PATCH) once its storage is past
 * the plan's included storage and its overage cap (STORAGE_CAP_REACHED). Deletes pass, so data
 * can be removed; so do the usage settings themselves, so the cap can be raised. Only the routes a
 * POST, PUT or PATCH can reach carry it (`interceptWriteRoutes` in createApp): a read pays nothing.
 */
@Injectable()
export class StorageCapInterceptor implements NestInterceptor {
  constructor(
    private readonly meter: UsageMeter,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const adds = request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH';
    const publicRoute = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (adds && !publicRoute && maybeCurrentTenant() && !NOT_CAPPED.test(request.path)) this.meter.checkStorage();
    return next.handle();
  }
}
