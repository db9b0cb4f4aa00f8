import { DynamicModule, Module } from '@nestjs/common';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { AuthModule } from './auth/auth.module';
import { ConfigModule } from './config/config.module';
import { AppConfig, loadConfig } from './config/configuration';
import { CpuModule } from './cpu/cpu-pool';
import { CPU_WORKER } from './cpu-tasks';
import { CreditsModule } from './credits/credits.module';
import { DatabaseModule } from './database/database.module';
import { HealthController } from './health/health.controller';
import { ImagesModule } from './images/images.module';
import { MailModule } from './mail/mail.module';
import { QueueModule } from './queue/queue.module';
import { RealtimeModule } from './realtime/realtime.module';
import { SizesModule } from './sizes/sizes.module';
import { StorageModule } from './storage/storage.module';
import { UsersModule } from './users/users.module';
import { PrintsModule } from './prints/prints.module';
import { SheetSettingsModule } from './sheet-settings/sheet-settings.module';
import { PaymentsModule } from './payments/payments.module';
import { IntegrationsModule } from './integrations/integrations.module';
import { OrdersModule } from './orders/orders.module';
import { NotificationsModule } from './notifications/notifications.module';
import { StatisticsModule } from './statistics/statistics.module';
import { ProductionModule } from './production/production.module';
import { TemplatesModule } from './templates/templates.module';

/** One module graph for the API, the worker and the tests; only the entry points differ. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        CpuModule.forRoot(CPU_WORKER),
        DatabaseModule,
        StorageModule,
        MailModule,
        QueueModule,
        CreditsModule,
        RealtimeModule,
        AuthModule,
        UsersModule,
        ImagesModule,
        SizesModule,
        SheetSettingsModule,
        PrintsModule,
        PaymentsModule,
        IntegrationsModule,
        OrdersModule,
        NotificationsModule,
        StatisticsModule,
        ProductionModule,
        TemplatesModule,
        ApiKeysModule,
        IdempotencyModule,
        WebhooksModule,
      ],
      controllers: [HealthController],
    };
  }
}
