import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { PushModule } from '../push/push.module';
import { AgentInterfacesTools } from './agent-interfaces.tools';
import { BatchReadService } from './batch-read.service';
import { ControlPlaneController } from './control-plane.controller';
import { ControlPlaneService } from './control-plane.service';
import { DocumentPeeksController } from './document-peeks.controller';
import { DocumentPeeksService } from './document-peeks.service';
import { FailoverController } from './failover.controller';
import { FailoverService } from './failover.service';
import { PkgGuardController } from './pkg-guard.controller';
import { PkgGuardService } from './pkg-guard.service';
import { VendorAdapter } from './vendor-adapter.service';
import { VendorDiagnosticsController } from './vendor-diagnostics.controller';
import { VendorMcpController } from './vendor-mcp.controller';

/** The remaining agent interfaces: batch_read, control-plane views, document peeks, failover status, the package gate and the vendor adapter. */
@Module({
  imports: [MessagesModule, PushModule],
  controllers: [ControlPlaneController, DocumentPeeksController, FailoverController, PkgGuardController, VendorMcpController, VendorDiagnosticsController],
  providers: [BatchReadService, AgentInterfacesTools, ControlPlaneService, DocumentPeeksService, FailoverService, PkgGuardService, VendorAdapter],
})
export class AgentInterfacesModule {}
