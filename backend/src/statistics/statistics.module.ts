import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { ProductionModule } from '../production/production.module';
import { PrintsReadModule } from '../prints/prints-read.module';
import { StatisticsController } from './statistics.controller';
import { StatisticsService } from './statistics.service';

@Module({ imports: [OrdersModule, PrintsReadModule, ProductionModule], controllers: [StatisticsController], providers: [StatisticsService], exports: [StatisticsService] })
export class StatisticsModule {}
