import { OutboundGuard } from '../../../libs/outbound-guard';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/** The guard of BYODB databases (allow-list `SERVICE_BYODB_ALLOWED_HOSTS`). */
export const BYODB_GUARD = Symbol('BYODB_GUARD');
/** The guard of tenant-chosen HTTP targets: notification URLs, project OTLP endpoints (`SERVICE_OUTBOUND_ALLOWED_HOSTS`). */
export const HTTP_OUTBOUND_GUARD = Symbol('HTTP_OUTBOUND_GUARD');

/** Providers of both guards; they refuse internal addresses in hosted mode only. */
export const OUTBOUND_GUARD_PROVIDERS = [
  {
    provide: BYODB_GUARD,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => new OutboundGuard({ enforce: config.isHosted, allowedHosts: config.byodbAllowedHosts }),
  },
  {
    provide: HTTP_OUTBOUND_GUARD,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => new OutboundGuard({ enforce: config.isHosted, allowedHosts: config.outboundAllowedHosts }),
  },
];
