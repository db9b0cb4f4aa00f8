import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { ApiKey } from './entities/api-key.entity';
import { SessionOnlyGuard } from './session-only.guard';

/** API keys for integrators; the bearer middleware is installed by configureApp (bootstrap.ts). */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKey])],
  controllers: [ApiKeysController],
  providers: [ApiKeysService, { provide: APP_GUARD, useClass: SessionOnlyGuard }],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
