// The README's quick start, end to end: `npm start` with no environment (the embedded
// default), then sign up, verify from the .eml in the outbox, log in and process a print.
// On a fresh clone it uses ./data as documented; where ./data already exists it works in a
// scratch DATA_DIR.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

const freshDefault = !existsSync('data');
const dataDir = freshDefault ? resolve('data') : mkdtempSync(join(tmpdir(), 'gs-smoke-'));
// a port nobody listens on (the system picks it), not one drawn at random
const port = await new Promise((res) => {
  const srv = createServer().listen(0, '127.0.0.1', () => {
    const { port } = srv.address();
    srv.close(() => res(port));
  });
});
const base = `http://localhost:${port}`;
const env = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), ...(freshDefault ? {} : { DATA_DIR: dataDir }) };
const app = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
const stop = () => {
  try {
    process.kill(-app.pid, 'SIGTERM');
  } catch {}
};
let log = '';
app.stdout.on('data', (d) => (log += d));
app.stderr.on('data', (d) => (log += d));

const fail = (msg) => {
  console.error(`smoke: ${msg}\n--- app output ---\n${log}`);
  stop();
  process.exit(1);
};
const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', origin: base };

try {
  for (let i = 0; ; i++) {
    if (i > 480) fail('the app did not build and become healthy in 4 minutes');
    const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (!/admin@localhost/.test(log) || !/password: \S+/.test(log)) fail('the first admin was not printed');
  const user = { firstName: 'Smoke', lastName: 'Tester', username: 'smoke', email: 'smoke@example.com', password: 'smoke-pass-1' };
  let res = await fetch(`${base}/api/register`, { method: 'POST', headers, body: JSON.stringify(user) });
  if (res.status !== 201) fail(`register answered ${res.status} ${await res.text()}`);
  const outbox = join(dataDir, 'outbox');
  // Mail is written after the answer (so its timing tells nothing): wait for it.
  let eml;
  for (let i = 0; i < 100 && !eml; i++) {
    eml = existsSync(outbox) ? readdirSync(outbox).find((f) => f.includes('smoke@example.com')) : undefined;
    if (!eml) await new Promise((r) => setTimeout(r, 100));
  }
  if (!eml) fail('no verification mail in the outbox');
  const raw = readFileSync(join(outbox, eml), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const token = raw.match(/\/verify\?token=([A-Za-z0-9_-]+)/)?.[1];
  if (!token) fail('no verification link in the mail');
  res = await fetch(`${base}/api/verify?token=${token}`);
  if (res.status !== 200) fail(`verify answered ${res.status}`);
  res = await fetch(`${base}/api/login`, { method: 'POST', headers, body: JSON.stringify({ email: 'smoke', password: user.password }) });
  if (res.status !== 200) fail(`login answered ${res.status}`);
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  res = await fetch(`${base}/api/profile`, { headers: { cookie } });
  const profile = await res.json();
  if (profile?.data?.username !== 'smoke') fail(`profile answered ${JSON.stringify(profile)}`);
  res = await fetch(`${base}/`);
  if (!res.ok || !(await res.text()).includes('<div id="root">')) fail('the UI is not served at /');

  // Whole prints on PGlite with the in-process job runner: the first admin (password from the
  // log) grants credits, the seller uploads a design, processes prints and downloads a sheet.
  const json = async (path, opts = {}, who = cookie) => {
    const r = await fetch(`${base}/api${path}`, { ...opts, headers: { ...headers, cookie: who, ...(opts.headers ?? {}) } });
    return { status: r.status, body: await r.json().catch(() => null), headers: r.headers };
  };
  const adminPassword = log.match(/password: (\S+)/)[1];
  res = await fetch(`${base}/api/login`, { method: 'POST', headers, body: JSON.stringify({ email: 'admin@localhost', password: adminPassword }) });
  if (res.status !== 200) fail(`admin login answered ${res.status}`);
  const adminCookie = res.headers.get('set-cookie')?.split(';')[0];
  const credit = await json(`/users/${profile.data._id}/credit`, { method: 'PUT', body: JSON.stringify({ availableCredits: 10, reason: 'Smoke test credits' }) }, adminCookie);
  if (credit.status !== 200) fail(`credit answered ${credit.status} ${JSON.stringify(credit.body)}`);
  const png = await sharp({ create: { width: 600, height: 400, channels: 4, background: { r: 200, g: 30, b: 90, alpha: 1 } } }).png().toBuffer();
  const form = new FormData();
  form.append('files', new Blob([png], { type: 'image/png' }), 'smoke-art.png');
  const upload = await fetch(`${base}/api/images/bulk-upload`, { method: 'POST', headers: { 'x-requested-with': 'XMLHttpRequest', origin: base, cookie }, body: form });
  if (upload.status !== 201) fail(`upload answered ${upload.status} ${await upload.text()}`);
  const imageId = (await upload.json()).data[0]._id;
  const size = await json('/sizes', { method: 'POST', body: JSON.stringify({ name: 'Smoke pocket', value: 2 }) });
  if (size.status !== 201) fail(`size answered ${size.status}`);
  const until = async (what, fn, seconds = 120) => {
    for (let i = 0; i < seconds * 4; i++) {
      const v = await fn();
      if (v) return v;
      await new Promise((r) => setTimeout(r, 250));
    }
    fail(`timed out waiting for ${what}`);
  };
  await until('the image to be ready', async () => (await json(`/images/${imageId}`)).body?.data?.status === 'ready');
  // three prints at once: the in-process runner runs two of one seller side by side on PGlite
  const printIds = [];
  for (const quantity of [3, 2, 1]) {
    const print = await json('/print', { method: 'POST', body: JSON.stringify({ printItems: [{ imageId, sizeId: size.body.data._id, quantity }] }) });
    if (print.status !== 201) fail(`create print answered ${print.status}`);
    printIds.push(print.body.data._id);
  }
  for (const printId of printIds) {
    const processed = await json(`/print/${printId}/proccess`, { method: 'POST', body: '{}' });
    if (processed.status !== 201) fail(`process answered ${processed.status} ${JSON.stringify(processed.body)}`);
  }
  const finished = [];
  for (const printId of printIds)
    finished.push(
      await until('the prints to complete', async () => {
        const p = (await json(`/print/${printId}`)).body?.data;
        if (p?.status === 'Error') fail(`processing failed: ${p.error}`);
        return p?.status === 'Completed' ? p : null;
      }),
    );
  const done = finished[0];
  const sheet = await fetch(`${base}${done.fileId[0].path}`, { headers: { cookie } });
  const meta = await sharp(Buffer.from(await sheet.arrayBuffer())).metadata();
  if (sheet.status !== 200 || meta.format !== 'png' || meta.width !== 22 * 300 || Math.round(meta.density) !== 300)
    fail(`the sheet is not a 22 in PNG at 300 DPI: ${sheet.status} ${JSON.stringify({ format: meta.format, width: meta.width, density: meta.density })}`);
  const balance = (await json('/profile')).body.data.credit;
  if (balance.availableCredits !== 4 || balance.usedCredits !== 6) fail(`credits after processing: ${JSON.stringify(balance)}`);
  console.log(
    `smoke: npm start on the embedded default OK (register → verify from ${freshDefault ? './data/outbox' : 'the outbox'} → login → profile → UI → credits → upload → three prints processed at once → ${meta.width}×${meta.height} px PNG at ${meta.density} DPI)`,
  );
} finally {
  stop();
  rmSync(dataDir, { recursive: true, force: true });
}
