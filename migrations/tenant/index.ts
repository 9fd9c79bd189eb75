import { MigrationClass } from '../../libs/tenancy';
import { Projects1732240000000 } from './1732240000000-projects';

/** The tenant set, oldest first. Append only. */
export const TENANT_MIGRATIONS: MigrationClass[] = [Projects1732240000000];
