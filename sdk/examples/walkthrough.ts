// The walk-through of docs/api.md with the SDK: upload → size → print → process → wait → download.
// backend/test/sdk-walkthrough.e2e-spec.ts runs it against the real server, with a test key
// (gsk_test_…: no credits spent, the files watermarked TEST) and with a live key.
import { randomUUID } from 'node:crypto';
import { createGangSheet, downloadFile, ok, uploadFiles, waitForPrint, type GangSheetOptions } from '../src';

export async function walkthrough(opts: GangSheetOptions, art: Uint8Array) {
  const gs = createGangSheet(opts);

  // 3. Upload artwork
  const [image] = await uploadFiles(gs, [{ name: 'logo.png', data: art }], { idempotencyKey: randomUUID() });

  // 4. A size: the printed width in inches
  const { data: size } = await ok(gs.POST('/api/sizes', { body: { name: 'Adult front', value: 11 } }));

  // 5. The print
  const { data: print } = await ok(
    gs.POST('/api/print', {
      params: { header: { 'Idempotency-Key': randomUUID() } },
      body: { printItems: [{ imageId: image._id, sizeId: size._id, quantity: 4 }] },
    }),
  );

  // 6. Process it, as PNG and PDF
  await ok(
    gs.POST('/api/print/{id}/process', {
      params: { path: { id: print._id }, header: { 'Idempotency-Key': randomUUID() } },
      body: { settings: { formats: ['png', 'pdf'] } },
    }),
  );

  // 7. Wait until it is Completed (or use the print.completed webhook)
  const done = await waitForPrint(gs, print._id, { intervalMs: 500 });

  // 8. Download every file
  const files = [];
  for (const f of done.fileId) files.push({ format: f.format, bytes: (await downloadFile(opts, f.path)).byteLength });
  const { data: profile } = await ok(gs.GET('/api/profile'));
  return { printId: print._id, status: done.status, files, credits: profile.credit };
}
