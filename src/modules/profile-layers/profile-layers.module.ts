import { Module } from '@nestjs/common';
import { AdminAuthorGuard } from './admin-author.guard';
import { HostedDefaultsService } from './hosted-defaults.service';
import { HostedDefaultsStore } from './hosted-defaults.store';
import { ProfileLayersController } from './profile-layers.controller';
import { ProfileLayersService } from './profile-layers.service';
import { ProfileLayersTools } from './profile-layers.tools';
import { ProfileResolver } from './profile-resolver.service';
import { UserLayerKeys } from './user-layer-keys.service';

@Module({
  controllers: [ProfileLayersController],
  providers: [AdminAuthorGuard, HostedDefaultsStore, HostedDefaultsService, ProfileResolver, ProfileLayersService, ProfileLayersTools, UserLayerKeys],
  exports: [ProfileResolver, HostedDefaultsStore],
})
export class ProfileLayersModule {}
