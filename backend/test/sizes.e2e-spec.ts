import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RealtimeService } from '../src/realtime/realtime.service';
import { insertPrint } from './fixtures/prints';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

describe('Sizes (e2e)', () => {
  let t: TestApp;
  let seller: Awaited<ReturnType<typeof signUpAndLogin>>;
  let other: Awaited<ReturnType<typeof signUpAndLogin>>;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await signUpAndLogin(t, 'sizeseller');
    other = await signUpAndLogin(t, 'sizeother');
  });
  afterAll(() => t.close());

  it('needs a session', async () => {
    await t.agent().get('/api/sizes').expect(401);
    await t.agent().post('/api/sizes').send({ name: 'x', value: 1 }).expect(401);
  });

  it.each([
    [{ value: 11 }, 'Name is required'],
    [{ name: '   ', value: 11 }, 'Name is required'],
    [{ name: 'Adult' }, 'Value is required'],
    [{ name: 'Adult', value: 'abc' }, 'Value must be a positive number'],
    [{ name: 'Adult', value: 0 }, 'Value must be a positive number'],
    [{ name: 'Adult', value: -3 }, 'Value must be a positive number'],
    [{ name: 'Adult', value: 201 }, 'Value must be at most 200 inches'],
    [{ name: 'x'.repeat(101), value: 3 }, 'Name must be at most 100 characters'],
  ])('POST /api/sizes %j → 400 %s', async (body, message) => {
    const res = await seller.agent.post('/api/sizes').send(body).expect(400);
    expect(res.body.message).toBe(message);
  });

  let adultId: string;
  it('POST /api/sizes → 201 (numeric strings accepted), emits size-{userId}', async () => {
    const emit = jest.spyOn(t.app.get(RealtimeService), 'emit');
    const res = await seller.agent.post('/api/sizes').send({ name: ' Adult front ', value: '11.5' }).expect(201);
    expect(res.body).toMatchObject({ message: 'Size created', data: { name: 'Adult front', value: 11.5 } });
    expect(Object.keys(res.body.data).sort()).toEqual(['_id', 'createdAt', 'name', 'updatedAt', 'value']);
    adultId = res.body.data._id;
    expect(emit).toHaveBeenCalledWith(seller.user._id, 'size', { action: 'created', data: expect.objectContaining({ _id: adultId, name: 'Adult front', value: 11.5 }) });
    emit.mockRestore();
    const dup = await seller.agent.post('/api/sizes').send({ name: 'adult FRONT', value: 3 }).expect(409);
    expect(dup.body).toMatchObject({ message: 'Size already exists', code: 'size_exists' });
    // another user may use the same name
    await other.agent.post('/api/sizes').send({ name: 'Adult front', value: 10 }).expect(201);
  });

  it('GET /api/sizes: newest first by default, sort, search, limit=999, pagination', async () => {
    for (const [name, value] of [['Youth', 8], ['Pocket', 3.5], ['Sleeve', 2.75]] as const) {
      await seller.agent.post('/api/sizes').send({ name, value }).expect(201);
    }
    const names = async (qs: string) => (await seller.agent.get(`/api/sizes?${qs}`).expect(200)).body.data.map((s: any) => s.name);
    expect(await names('')).toEqual(['Sleeve', 'Pocket', 'Youth', 'Adult front']);
    expect(await names('sortBy=value&sort=asc')).toEqual(['Sleeve', 'Pocket', 'Youth', 'Adult front']);
    expect(await names('sortBy=name&sort=desc')).toEqual(['Youth', 'Sleeve', 'Pocket', 'Adult front']);
    expect(await names('search=ou')).toEqual(['Youth']);
    const all = (await seller.agent.get('/api/sizes?limit=999').expect(200)).body;
    expect(all.pagination).toEqual({ totalDocuments: 4, totalPages: 1 });
    const page = (await seller.agent.get('/api/sizes?limit=3&page=2').expect(200)).body;
    expect(page).toMatchObject({ pagination: { totalDocuments: 4, totalPages: 2 } });
    expect(page.data.map((s: any) => s.name)).toEqual(['Adult front']);
    expect((await seller.agent.get('/api/sizes?limit=1000').expect(400)).body.message).toBe('limit must be at most 999');
    expect((await seller.agent.get('/api/sizes?sortBy=color').expect(400)).body.message).toBe('sortBy must be one of name, value, createdAt');
  });

  it('GET/PUT /api/sizes/{id}', async () => {
    expect((await seller.agent.get(`/api/sizes/${adultId}`).expect(200)).body.data).toMatchObject({ name: 'Adult front', value: 11.5 });
    const res = await seller.agent.put(`/api/sizes/${adultId}`).send({ name: 'Adult front', value: 12 }).expect(200);
    expect(res.body).toMatchObject({ message: 'Size updated', data: { value: 12 } });
    expect((await seller.agent.put(`/api/sizes/${adultId}`).send({ name: '', value: 12 }).expect(400)).body.message).toBe('Name is required');
    await seller.agent.put(`/api/sizes/${adultId}`).send({ name: 'Youth', value: 12 }).expect(409);
  });

  it("another user's size id → 404", async () => {
    await other.agent.get(`/api/sizes/${adultId}`).expect(404);
    await other.agent.put(`/api/sizes/${adultId}`).send({ name: 'Mine', value: 1 }).expect(404);
    await other.agent.delete(`/api/sizes/${adultId}`).expect(404);
    await seller.agent.get(`/api/sizes/${randomUUID()}`).expect(404, /Size not found/);
    await seller.agent.get('/api/sizes/123').expect(404);
    expect((await other.agent.get('/api/sizes').expect(200)).body.data.map((s: any) => s.name)).toEqual(['Adult front']);
  });

  it('DELETE /api/sizes/{id}: refused while a print uses it, else deleted', async () => {
    const db = t.app.get(DataSource);
    await insertPrint(db, seller.user._id, 'Completed', [{ sizeId: adultId }]);
    const refused = await seller.agent.delete(`/api/sizes/${adultId}`).expect(409);
    expect(refused.body).toMatchObject({ code: 'size_in_use', message: '"Adult front" is used by 1 print. Change those print items to another size first.' });
    await seller.agent.get(`/api/sizes/${adultId}`).expect(200);

    const youth = (await seller.agent.get('/api/sizes?search=Youth').expect(200)).body.data[0]._id;
    const emit = jest.spyOn(t.app.get(RealtimeService), 'emit');
    expect((await seller.agent.delete(`/api/sizes/${youth}`).expect(200)).body.message).toBe('Size deleted');
    expect(emit).toHaveBeenCalledWith(seller.user._id, 'size', expect.objectContaining({ action: 'deleted' }));
    emit.mockRestore();
    await seller.agent.get(`/api/sizes/${youth}`).expect(404);
  });
});
