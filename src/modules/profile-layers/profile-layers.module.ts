import { Module } from '@nestjs/common';
import { HostedDefaultsService } from './hosted-defaults.service';
import { HostedDefaultsStore } from './hosted-defaults.store';
import { ProfileLayersController } from './profile-layers.controller';
import { ProfileLayersService } from './profile-layers.service';
import { ProfileLayersTools } from './profile-layers.tools';
import { ProfileResolver } from './profile-resolver.service';

@Module({
  controllers: [ProfileLayersController],
  providers: [HostedDefaultsStore, HostedDefaultsService, ProfileResolver, ProfileLayersService, ProfileLayersTools],
  exports: [ProfileResolver, HostedDefaultsStore],
})
export class ProfileLayersModule {}
