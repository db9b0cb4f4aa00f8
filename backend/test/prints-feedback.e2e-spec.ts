import { PRINT_ENGINE, PrintEngine } from '../src/prints/engine.adapter';
import { liveEventName } from '../src/realtime/events';
import { RealtimeService } from '../src/realtime/realtime.service';
import { StorageService } from '../src/storage/storage.service';
import { addDesign, addSize, setCredits, waitDone } from './prints.fixtures';
import { adminAgent, createTestApp, signUpAndLogin, TestApp } from './utils/create-test-app';

/** What the seller is told while and after a print is made: which print, how far, and live counts. */
describe('Prints: feedback (e2e, in-process jobs)', () => {
  let t: TestApp;
  let admin: any;
  const events: Array<{ userId: string; event: string; payload: any }> = [];
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: '', PRINT_LAYOUT_TIME_LIMIT_MS: '2000' });
    admin = await adminAgent(t);
    const rt = t.app.get(RealtimeService);
    const original = rt.emit.bind(rt);
    jest.spyOn(rt, 'emit').mockImplementation((userId, topic, payload) => {
      events.push({ userId, event: liveEventName(topic, userId), payload });
      original(userId, topic, payload);
    });
  });
  afterAll(() => t.close());

  async function seller(name: string, credits = 20) {
    const s = await signUpAndLogin(t, name);
    await setCredits(t, admin, s.user._id, credits);
    const image = await addDesign(t, s.user._id, { name: `${name}-art` });
    const size = await addSize(t, s.user._id, 'Front', 2);
    const p = (await s.agent.post('/api/print').send({ printItems: [{ imageId: image._id, sizeId: size._id, quantity: 3 }] }).expect(201)).body.data;
    return { ...s, image, size, printId: p._id as string, number: (p._id as string).slice(0, 8).toUpperCase() };
  }
  const bell = async (s: { agent: any }) => (await s.agent.get('/api/notifications?limit=20').expect(200)).body.data.filter((n: any) => n.type === 'print');

  it('the ready notification and e-mail name the print', async () => {
    const s = await seller('readyname');
    await s.agent.post(`/api/print/${s.printId}/process`).send({}).expect(201);
    expect((await waitDone(s.agent, s.printId)).status).toBe('Completed');
    const mail = await t.mail.waitFor(s.email, new RegExp(`^Print ${s.number} is ready$`));
    expect(mail.text).toContain(`the gang sheets of Print ${s.number} are ready`);
    expect(await bell(s)).toEqual([expect.objectContaining({ attachmentId: s.printId, message: `Print ${s.number} is ready: 1 sheet to download.` })]);
  });

  it('the failure notification and e-mail name the print', async () => {
    const s = await seller('failname');
    await t.app.get(StorageService).delete(s.image.fileKey);
    await s.agent.post(`/api/print/${s.printId}/process`).send({}).expect(201);
    expect((await waitDone(s.agent, s.printId)).status).toBe('Error');
    await t.mail.waitFor(s.email, new RegExp(`^Print ${s.number} could not be processed$`));
    expect(await bell(s)).toEqual([
      expect.objectContaining({ attachmentId: s.printId, message: `Print ${s.number} could not be processed: The file of design "failname-art" is missing. Please upload it again.` }),
    ]);
  });

  it('a long layout search reports progress while it runs, before rendering starts', async () => {
    const s = await seller('slowlayout');
    const engine = t.app.get<PrintEngine>(PRINT_ENGINE);
    const layout = engine.layout.bind(engine);
    // the search takes its whole budget (2 s here), as a large true-shape print's does
    const spy = jest.spyOn(engine, 'layout').mockImplementation(async (...args) => {
      await new Promise((r) => setTimeout(r, 2000));
      return layout(...args);
    });
    try {
      await s.agent.post(`/api/print/${s.printId}/process`).send({}).expect(201);
      expect((await waitDone(s.agent, s.printId)).status).toBe('Completed');
    } finally {
      spy.mockRestore();
    }
    const updates = events.filter((e) => e.event === `print-update-${s.user._id}` && e.payload.printId === s.printId).map((e) => e.payload);
    const layoutPercents = updates.filter((u) => u.stage === 'layout').map((u) => u.percent);
    expect(layoutPercents[0]).toBe(5);
    expect(layoutPercents.length).toBeGreaterThanOrEqual(3);
    expect(layoutPercents.every((p) => p >= 5 && p < 10)).toBe(true);
    expect(updates.map((u) => u.percent)).toEqual([...updates.map((u) => u.percent)].sort((a, b) => a - b));
    expect(updates.find((u) => u.stage === 'render')?.percent).toBe(10);
  });

  it('creating, duplicating and deleting drafts are announced live (the dashboard counts follow)', async () => {
    const s = await seller('livecounts');
    const mine = () => events.filter((e) => e.event === `print-${s.user._id}`).map((e) => e.payload);
    expect(mine()).toEqual([{ printId: s.printId, status: 'In Draft' }]);
    const copy = (await s.agent.post(`/api/print/${s.printId}/duplicate`).send({}).expect(201)).body.data;
    expect(mine().at(-1)).toEqual({ printId: copy._id, status: 'In Draft' });
    await s.agent.delete(`/api/print/${copy._id}`).expect(200);
    expect(mine().at(-1)).toEqual({ printId: copy._id, status: 'Deleted' });
    await s.agent.delete(`/api/print/${copy._id}/force`).expect(200);
    expect(mine().at(-1)).toEqual({ printId: copy._id, status: 'Removed' });
    // another seller hears nothing of it
    const other = await signUpAndLogin(t, 'livecountsother');
    expect(events.some((e) => e.userId === other.user._id)).toBe(false);
  });
});
