import { Module } from '@nestjs/common';
import { PasswordAttempts } from '../../common/rate-limit/password-attempts';
import { SiteGate } from './site-gate.service';

/** SITE_PASSWORD: the gate the application factory puts in front of every route and WebSocket. */
@Module({ providers: [PasswordAttempts, SiteGate], exports: [SiteGate] })
export class SiteGateModule {}
