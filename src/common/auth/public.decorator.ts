import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'baton:public';

/** Marks a route that needs no tenant (health, configuration, documentation). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
