import { ServiceUnavailableException } from '@nestjs/common';
import { AppConfig } from '../config/configuration';
import { HEALTH_REUSE_MS, HealthController } from './health.controller';

describe('HealthController', () => {
  const setup = () => {
    const db = { query: jest.fn().mockResolvedValue([{ '?column?': 1 }]) };
    const jobs = { health: jest.fn().mockResolvedValue(undefined) };
    const storage = { driver: 'local', health: jest.fn().mockResolvedValue(undefined) };
    const config = { database: { url: null }, redis: { url: null } } as unknown as AppConfig;
    const controller = new HealthController(config, db as never, jobs as never, storage as never);
    return { controller, db, jobs, storage };
  };

  afterEach(() => jest.useRealTimers());

  it('answers concurrent requests with one round of checks', async () => {
    const { controller, db, storage } = setup();
    const bodies = await Promise.all(Array.from({ length: 20 }, () => controller.health()));
    expect(bodies.every((b) => b.status === 'ok')).toBe(true);
    expect(db.query).toHaveBeenCalledTimes(1);
    expect(storage.health).toHaveBeenCalledTimes(1);
  });

  it('checks again once the last answer is older than HEALTH_REUSE_MS', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    const { controller, db } = setup();
    await controller.health();
    jest.advanceTimersByTime(HEALTH_REUSE_MS - 10);
    await controller.health();
    expect(db.query).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(20);
    await controller.health();
    expect(db.query).toHaveBeenCalledTimes(2);
  });

  it('answers 503 naming the failed check, and recovers on a later round', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    const { controller, storage } = setup();
    storage.health.mockRejectedValueOnce(new Error('disk full'));
    const failed = await controller.health().catch((e) => e);
    expect(failed).toBeInstanceOf(ServiceUnavailableException);
    expect(failed.getResponse()).toMatchObject({ details: { storage: { status: 'error' }, database: { status: 'ok' }, queue: { status: 'ok' } } });
    // the driver's error text goes to the log only
    expect(JSON.stringify(failed.getResponse())).not.toContain('disk full');
    jest.advanceTimersByTime(HEALTH_REUSE_MS);
    await expect(controller.health()).resolves.toMatchObject({ status: 'ok' });
  });
});
