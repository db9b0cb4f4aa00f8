// The README's quick start, end to end: `npm start` with no environment (the embedded
// default), then sign up, verify from the .eml in the outbox and log in. On a fresh clone it
// uses ./data as documented; where ./data already exists it works in a scratch DATA_DIR.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const freshDefault = !existsSync('data');
const dataDir = freshDefault ? resolve('data') : mkdtempSync(join(tmpdir(), 'gs-smoke-'));
const port = 3900 + Math.floor(Math.random() * 90);
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
  const eml = readdirSync(outbox).find((f) => f.includes('smoke@example.com'));
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
  console.log(`smoke: npm start on the embedded default OK (register → verify from ${freshDefault ? './data/outbox' : 'the outbox'} → login → profile → UI)`);
} finally {
  stop();
  rmSync(dataDir, { recursive: true, force: true });
}
