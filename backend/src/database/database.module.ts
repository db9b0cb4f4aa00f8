import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { dataSourceOptions } from './data-source-options';
import { runMigrations } from './migrate';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => dataSourceOptions(config),
      // Migrations run at start in every mode, so a fresh database is usable at once.
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        // Only a PostgreSQL server (options with a url) has other nodes to wait for.
        await runMigrations(dataSource, { locked: 'url' in options! && !!options.url });
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
