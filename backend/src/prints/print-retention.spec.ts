import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/configuration';
import { StorageService } from '../storage/storage.service';
import { PrintJobRepository } from './print-job.repository';
import { PrintRetentionService } from './print-retention.service';

beforeAll(() => Logger.overrideLogger(false));

describe('print retention', () => {
  const config = { prints: { retentionDays: 7 } } as AppConfig;
  const now = new Date('2026-03-10T12:00:00Z');

  function setup(markedByThisRun: Record<string, boolean>) {
    const steps: string[] = [];
    const prints = {
      expiredFiles: jest.fn(async () => [
        { id: 'p1', userId: 'u1' },
        { id: 'p2', userId: 'u2' },
      ]),
      markFilesDeleted: jest.fn(async (id: string) => (steps.push(`mark ${id}`), markedByThisRun[id])),
    };
    const storage = { deleteFolder: jest.fn(async (key: string) => void steps.push(`delete ${key}`)) };
    const service = new PrintRetentionService(config, prints as unknown as PrintJobRepository, storage as unknown as StorageService);
    return { service, prints, steps };
  }

  it('deletes the files of prints printed more than PRINT_RETENTION_DAYS ago, each before its row says so', async () => {
    const { service, prints, steps } = setup({ p1: true, p2: true });
    expect(await service.expireFiles(now)).toBe(2);
    expect(prints.expiredFiles).toHaveBeenCalledWith(new Date('2026-03-03T12:00:00Z'));
    expect(steps).toEqual(['delete users/u1/prints/p1', 'mark p1', 'delete users/u2/prints/p2', 'mark p2']);
  });

  it('counts only the prints this run marked (a sweep on another node may get there first)', async () => {
    const { service } = setup({ p1: false, p2: true });
    expect(await service.expireFiles(now)).toBe(1);
  });
});
