import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { createObjectStore } from './object-store.factory';
import { OBJECT_STORE, ObjectStore } from './object-store';
import { StorageService } from './storage.service';

@Global()
@Module({
  providers: [
    StorageService,
    { provide: OBJECT_STORE, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createObjectStore(config) },
  ],
  exports: [StorageService, OBJECT_STORE],
})
export class StorageModule implements OnApplicationShutdown {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  onApplicationShutdown(): void {
    this.store.close?.();
  }
}
