import { applyDecorators, UseGuards } from '@nestjs/common';
import { AdminOnlyGuard } from './admin-only.guard';
import { Public } from './public.decorator';

/**
 * An operator's route: no workspace (no bearer token or current workspace is
 * asked for), only an admin identity (AdminIdentity).
 */
export const AdminOnly = () => applyDecorators(Public(), UseGuards(AdminOnlyGuard));
