import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/configuration';
import { dataSourceOptions } from './data-source-options';

/** For the TypeORM CLI (migration:generate / migration:run). */
export default new DataSource(dataSourceOptions(loadConfig()));
