import { Global, Module } from '@nestjs/common';
import { DIAGNOSTICS_LAYERS } from '../push/diagnostics-layers';
import { TunnelInstallService } from './tunnel-install.service';
import { TunnelProxyController } from './tunnel-proxy.controller';
import { TunnelProxyService } from './tunnel-proxy.service';
import { TunnelRegistryService } from './tunnel-registry.service';
import { TunnelRelay } from './tunnel-relay.service';
import { TunnelSettingsService } from './tunnel-settings.service';
import { TunnelSockets } from './tunnel-sockets.service';
import { TunnelController } from './tunnel.controller';
import { TunnelGateway } from './tunnel.gateway';
import { TunnelService } from './tunnel.service';

/** The connectors' tunnel, the ten tool proxies over it, and the tunnel's routes. */
@Global()
@Module({
  controllers: [TunnelController, TunnelProxyController],
  providers: [
    TunnelSockets,
    TunnelRelay,
    TunnelSettingsService,
    TunnelService,
    TunnelProxyService,
    TunnelRegistryService,
    TunnelInstallService,
    TunnelGateway,
    { provide: DIAGNOSTICS_LAYERS, useExisting: TunnelService },
  ],
  exports: [DIAGNOSTICS_LAYERS],
})
export class TunnelModule {}
