import { AppConfig } from '../config/configuration';
import { LocalObjectStore } from './local-object-store';
import { ObjectStore } from './object-store';

/** The store STORAGE_DRIVER names. The AWS SDK is large, so only the `s3` driver loads it. */
export async function createObjectStore(config: Pick<AppConfig, 'storage' | 'filesDir'>): Promise<ObjectStore> {
  const { storage } = config;
  if (storage.driver === 's3') {
    const { S3ObjectStore } = await import('./s3-object-store');
    return new S3ObjectStore(storage.s3!);
  }
  return new LocalObjectStore(config.filesDir);
}
