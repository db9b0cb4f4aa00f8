import request from 'supertest';
import { addDesign, addSize } from './prints.fixtures';
import { createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** An integrator's own reference and metadata on prints: stored, returned, searchable, unique per seller, in events. */
describe('Print externalId and metadata (e2e)', () => {
  let t: TestApp;
  let http: () => ReturnType<typeof request>;

  beforeAll(async () => {
    t = await createTestApp();
    const server = t.app.getHttpServer();
    http = () => request(server);
  });
  afterAll(() => t.close());

  async function integrator(name: string) {
    const s = await signUpAndLogin(t, name);
    const key = (await s.agent.post('/api/api-keys').send({ name: 'script', scope: 'read-write' }).expect(201)).body.data.secret as string;
    const image = await addDesign(t, s.user._id);
    const size = await addSize(t, s.user._id, 'Adult', 2);
    return { ...s, auth: { Authorization: `Bearer ${key}` }, items: [{ imageId: image._id, sizeId: size._id, quantity: 1 }] };
  }

  it('stored and returned everywhere; listed by externalId; a second print with it is a 409 naming the first', async () => {
    const a = await integrator('refs');
    const created = await http().post('/api/print').set(a.auth).send({ printItems: a.items, externalId: 'order-5012', metadata: { channel: 'shopify', batch: 'B-77' } }).expect(201);
    const print = created.body.data;
    expect(print).toMatchObject({ externalId: 'order-5012', metadata: { channel: 'shopify', batch: 'B-77' } });
    expect((await http().get(`/api/print/${print._id}`).set(a.auth).expect(200)).body.data).toMatchObject({ externalId: 'order-5012', metadata: { channel: 'shopify', batch: 'B-77' } });
    const plain = (await http().post('/api/print').set(a.auth).send({ printItems: a.items }).expect(201)).body.data;
    expect(plain).toMatchObject({ externalId: null, metadata: {} });

    const found = (await http().get('/api/print?externalId=order-5012').set(a.auth).expect(200)).body;
    expect(found.data.map((p: any) => p._id)).toEqual([print._id]);
    expect(found.pagination).toEqual({ totalDocuments: 1, totalPages: 1 });
    expect((await http().get('/api/print?externalId=order-9999').set(a.auth).expect(200)).body.data).toEqual([]);

    const twice = await http().post('/api/print').set(a.auth).send({ printItems: a.items, externalId: 'order-5012' }).expect(409);
    expect(twice.body).toMatchObject({ code: 'external_id_taken', message: `You already have a print with externalId "order-5012": ${print._id}.` });
    // another seller's references are theirs: the same one is free for them, and mine stay hidden
    const b = await integrator('refs-other');
    await http().post('/api/print').set(b.auth).send({ printItems: b.items, externalId: 'order-5012' }).expect(201);
    expect((await http().get('/api/print?externalId=order-5012').set(b.auth).expect(200)).body.data).toHaveLength(1);
  });

  it('refuses bad references and metadata with the field named', async () => {
    const a = await integrator('refs-bad');
    const refuse = async (body: object, field: string, message: RegExp) => {
      const res = await http().post('/api/print').set(a.auth).send({ printItems: a.items, ...body }).expect(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([expect.objectContaining({ field, message: expect.stringMatching(message) })]);
    };
    await refuse({ externalId: 'has space' }, 'externalId', /visible ASCII/);
    await refuse({ externalId: 'x'.repeat(201) }, 'externalId', /1–200/);
    await refuse({ metadata: { n: 5 } }, 'metadata', /metadata\.n must be text/);
    await refuse({ metadata: ['a'] }, 'metadata', /object of text values/);
    await refuse({ metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata', /at most 20 keys/);
    await refuse({ metadata: { ['k'.repeat(41)]: 'v' } }, 'metadata', /keys must be 1–40/);
    await refuse({ metadata: { note: 'v'.repeat(501) } }, 'metadata', /at most 500/);
  });
});
