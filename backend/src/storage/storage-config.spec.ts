import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/configuration';
import { unsignedPayloads } from './s3-object-store';

describe('STORAGE_* configuration', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gs-storage-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });

  it('defaults to the local folder with no S3 settings', () => {
    expect(load({}).storage).toMatchObject({ driver: 'local', signedUrlSeconds: 300, cacheBytes: 2048 * 1024 * 1024, orphanMinAgeMs: 86_400_000, orphanSweepObjects: 50_000, s3: undefined });
  });

  it('needs a bucket for s3, and both keys or neither', () => {
    expect(() => load({ STORAGE_DRIVER: 's3' })).toThrow(/STORAGE_S3_BUCKET: required/);
    expect(() => load({ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'b12', STORAGE_S3_ACCESS_KEY_ID: 'k' })).toThrow(ConfigError);
    expect(() => load({ STORAGE_DRIVER: 'ftp' })).toThrow(/STORAGE_DRIVER/);
  });

  it('uses path-style URLs with a custom endpoint and virtual-hosted ones on AWS, unless told otherwise', () => {
    const base = { STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'prints' };
    expect(load({ ...base, STORAGE_S3_ENDPOINT: 'http://rgw:7480' }).storage.s3!.forcePathStyle).toBe(true);
    expect(load(base).storage.s3!.forcePathStyle).toBe(false);
    expect(load({ ...base, STORAGE_S3_ENDPOINT: 'https://s3.example.com', STORAGE_S3_FORCE_PATH_STYLE: 'false' }).storage.s3!.forcePathStyle).toBe(false);
  });

  it('reads the part size in MB (at least 5), the checksum mode and a folder prefix', () => {
    const s3 = load({
      STORAGE_DRIVER: 's3',
      STORAGE_S3_BUCKET: 'prints',
      STORAGE_S3_PART_SIZE_MB: '16',
      STORAGE_S3_CHECKSUMS: 'when_supported',
      STORAGE_S3_PREFIX: 'shop-a/',
    }).storage.s3!;
    expect(s3).toMatchObject({ partSizeBytes: 16 * 1024 * 1024, checksums: 'when_supported', prefix: 'shop-a/', region: 'us-east-1', queueSize: 2 });
    expect(() => load({ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'prints', STORAGE_S3_PART_SIZE_MB: '4' })).toThrow(/STORAGE_S3_PART_SIZE_MB/);
    expect(() => load({ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'prints', STORAGE_S3_PREFIX: 'no-slash' })).toThrow(/STORAGE_S3_PREFIX/);
    expect(() => load({ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'prints', STORAGE_S3_PREFIX: '/abs/' })).toThrow(/STORAGE_S3_PREFIX/);
  });

  it('signs upload bodies over plain HTTP and sends them UNSIGNED-PAYLOAD over HTTPS, unless told', () => {
    const base = { STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'prints' };
    expect(load(base).storage.s3!.signPayloads).toBe('auto');
    expect(load({ ...base, STORAGE_S3_SIGN_PAYLOADS: 'true' }).storage.s3!.signPayloads).toBe('true');
    expect(() => load({ ...base, STORAGE_S3_SIGN_PAYLOADS: 'sometimes' })).toThrow(/STORAGE_S3_SIGN_PAYLOADS/);
    expect(unsignedPayloads({ signPayloads: 'auto' })).toBe(true); // AWS itself: HTTPS
    expect(unsignedPayloads({ endpoint: 'https://s3.example.com', signPayloads: 'auto' })).toBe(true);
    expect(unsignedPayloads({ endpoint: 'http://rgw:7480', signPayloads: 'auto' })).toBe(false);
    expect(unsignedPayloads({ endpoint: 'http://rgw:7480' })).toBe(false);
    expect(unsignedPayloads({ endpoint: 'http://rgw:7480', signPayloads: 'false' })).toBe(true);
    expect(unsignedPayloads({ endpoint: 'https://s3.example.com', signPayloads: 'true' })).toBe(false);
  });
});
