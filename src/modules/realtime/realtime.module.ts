import { Global, Module } from '@nestjs/common';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { RealtimeGateway } from './realtime.gateway';

@Global()
@Module({ providers: [RealtimeEvents, RealtimeGateway], exports: [RealtimeEvents] })
export class RealtimeModule {}
