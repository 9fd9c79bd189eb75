import { Global, Module } from '@nestjs/common';
import { PasswordAttempts } from '../rate-limit/password-attempts';
import { AdminIdentity } from './admin-identity.service';
import { AdminOnlyGuard } from './admin-only.guard';

/** The admin identity and the guard of @AdminOnly() routes, for every module that has one. */
@Global()
@Module({ providers: [PasswordAttempts, AdminIdentity, AdminOnlyGuard], exports: [AdminIdentity, AdminOnlyGuard] })
export class AdminAuthModule {}
