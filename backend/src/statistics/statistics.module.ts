import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { PrintsReadModule } from '../prints/prints-read.module';
import { StatisticsController } from './statistics.controller';
import { StatisticsService } from './statistics.service';

@Module({ imports: [OrdersModule, PrintsReadModule], controllers: [StatisticsController], providers: [StatisticsService], exports: [StatisticsService] })
export class StatisticsModule {}
