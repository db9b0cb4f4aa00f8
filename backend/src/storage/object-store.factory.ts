import { AppConfig } from '../config/configuration';
import { LocalObjectStore } from './local-object-store';
import { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3-object-store';

export function createObjectStore(config: Pick<AppConfig, 'storage' | 'filesDir'>): ObjectStore {
  const { storage } = config;
  if (storage.driver === 's3') return new S3ObjectStore(storage.s3!);
  return new LocalObjectStore(config.filesDir);
}
