import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { dataSourceOptions } from './data-source-options';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      // Migrations run at start in every mode, so a fresh database is usable at once.
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), migrationsRun: true }),
    }),
  ],
})
export class DatabaseModule {}
