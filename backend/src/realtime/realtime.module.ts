import { Global, Module } from '@nestjs/common';
import { SessionModule } from '../session/session.module';
import { RealtimeGateway } from './realtime.gateway';
import { RealtimeService } from './realtime.service';

@Global()
@Module({ imports: [SessionModule], providers: [RealtimeService, RealtimeGateway], exports: [RealtimeService] })
export class RealtimeModule {}
