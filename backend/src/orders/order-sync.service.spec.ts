import { OrderSyncService } from './order-sync.service';

/**
 * The Sync orders request when a job with the shop's sync id still exists (collaborators
 * mocked: the queue's dedupe and the integration's status are what is under test).
 */
describe('OrderSyncService.request', () => {
  function service(status: string, addResults: boolean[]) {
    const adds = [...addResults];
    const jobs = { add: jest.fn(async () => ({ added: adds.shift() ?? false })) };
    const integrations = { get: jest.fn(async () => ({ _id: 'i1', connected: true, syncStatus: status })), markSync: jest.fn(async () => undefined) };
    const svc = new OrderSyncService({} as never, {} as never, jobs as never, integrations as never, {} as never, {} as never);
    return { svc, jobs, integrations };
  }

  it('starts a new sync when the one holding the id has already reported done (its job is returning)', async () => {
    const { svc, jobs, integrations } = service('done', [false, false, true]);
    await expect(svc.request('u1', 'i1')).resolves.toEqual({ message: 'Order sync started', status: 'queued' });
    expect(jobs.add).toHaveBeenCalledTimes(3);
    expect(integrations.markSync).toHaveBeenCalledWith('i1', { syncStatus: 'queued' });
  });

  it('answers "already running" at once while a sync is queued or running', async () => {
    for (const status of ['queued', 'running']) {
      const { svc, jobs, integrations } = service(status, [false, true]);
      await expect(svc.request('u1', 'i1')).resolves.toEqual({ message: 'Order sync is already running', status: 'running' });
      expect(jobs.add).toHaveBeenCalledTimes(1);
      expect(integrations.markSync).not.toHaveBeenCalled();
    }
  });

  it('gives up after about a second if the finished sync never lets go of the id', async () => {
    const { svc, jobs } = service('failed', []);
    await expect(svc.request('u1', 'i1')).resolves.toEqual({ message: 'Order sync is already running', status: 'running' });
    expect(jobs.add).toHaveBeenCalledTimes(21);
  });
});
