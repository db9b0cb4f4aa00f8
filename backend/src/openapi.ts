import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from './app.module';
import { APP_OPTIONS, buildOpenApi, configureApp, createHttpAdapter, initApp } from './bootstrap';
import { loadConfig } from './config/configuration';

/** Stable JSON: keys sorted so the committed file only changes when the API does. */
export function sortedJson(value: unknown): string {
  const sort = (v: any): any =>
    Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])])) : v;
  return JSON.stringify(sort(value), null, 2) + '\n';
}

export const OPENAPI_FILE = join(__dirname, '..', '..', 'docs', 'openapi.json');
/** The server docs/openapi.json names: the app's address when started with the defaults. */
export const DOCUMENTED_SERVER = 'http://localhost:3000';

/** Boots the app without listening (on a throwaway PGlite) and writes docs/openapi.json. */
async function main() {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dataDir = mkdtempSync(join(tmpdir(), 'gs-openapi-'));
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'development' });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), createHttpAdapter(config), { ...APP_OPTIONS, logger: false });
  configureApp(app);
  await initApp(app);
  writeFileSync(OPENAPI_FILE, sortedJson(buildOpenApi(app, DOCUMENTED_SERVER)));
  await app.close();
  console.log(`wrote ${OPENAPI_FILE}`);
}

if (require.main === module) void main();
