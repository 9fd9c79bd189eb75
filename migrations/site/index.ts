import { MigrationClass } from '../../libs/tenancy';
import { SiteContent1732500000000 } from './1732500000000-site-content';

/**
 * The instance's own set (waitlist, feedback, blog, changelog, admin audit),
 * applied to the shared database after its main set: the control schema
 * hosted, the local data self-hosted. Append only.
 */
export const SITE_MIGRATIONS: MigrationClass[] = [SiteContent1732500000000];
