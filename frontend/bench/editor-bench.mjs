/* global console, process, window, URL, performance, requestAnimationFrame */
// `npm run bench:editor -w frontend`: frame times of the layout editor's canvas in Chromium on a
// 400-copy true-shape print (bench/main.tsx), before and after the speed work, in one run with
// the arms alternating (before, after, after, before): dragging one copy, box-selecting about 50
// copies, and dragging those 50. Frames are timed with requestAnimationFrame while Playwright
// moves the mouse; "drop" and "select" are the time from releasing the button to the next
// frame. Prints a JSON line per arm and a table (for docs/benchmarks/layout-editor-log.md).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { chromium } from "@playwright/test";

const DIST = process.env.BENCH_DIST ?? "/tmp/gangsheet-bench-editor";
const MOVES = Number(process.env.BENCH_MOVES ?? 80);
/** CPU slowed down this many times (Chromium's emulation), e.g. 4 for a tablet. */
const THROTTLE = Number(process.env.BENCH_CPU_THROTTLE ?? 1);
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".map": "application/json" };

const server = createServer(async (req, res) => {
  const path = join(DIST, decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/$/, "/editor.html"));
  try {
    const body = await readFile(path);
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});

const stats = (t) => {
  const d = t.slice(1).map((v, i) => v - t[i]).sort((a, b) => a - b);
  if (!d.length) return { fps: 0, p95: NaN, max: NaN };
  const span = t[t.length - 1] - t[0];
  return { fps: +((d.length / span) * 1000).toFixed(1), p95: +d[Math.min(d.length - 1, Math.floor(d.length * 0.95))].toFixed(1), max: +d[d.length - 1].toFixed(1) };
};

async function run(arm) {
  const page = await browser.newPage({ viewport: { width: 1366, height: 1000 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  if (THROTTLE > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: THROTTLE });
  const busy = async () => (await cdp.send("Performance.getMetrics")).metrics.find((x) => x.name === "TaskDuration").value * 1000;
  await page.goto(`${base}/editor.html?arm=${arm}`);
  const canvas = page.getByTestId("layout-canvas");
  await canvas.locator("canvas").first().waitFor();
  await page.waitForTimeout(1500);
  const box = await canvas.boundingBox();
  const m = await canvas.evaluate((el) => ({ ppi: Number(el.dataset.ppi), ox: Number(el.dataset.ox), oy: Number(el.dataset.oy) }));
  const at = (x, y) => ({ x: box.x + m.ox + x * m.ppi, y: box.y + m.oy + y * m.ppi });
  const afterUp = async () => page.evaluate(() => new Promise((r) => { const t0 = performance.now(); requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now() - t0))); }));
  const drag = async (from, to) => {
    const a = at(from.x, from.y);
    const b = at(to.x, to.y);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.evaluate(() => window.__bench.start());
    const b0 = await busy();
    for (let i = 1; i <= MOVES; i++) await page.mouse.move(a.x + ((b.x - a.x) * i) / MOVES, a.y + ((b.y - a.y) * i) / MOVES);
    const frames = await page.evaluate(() => window.__bench.stop());
    const perMove = (await busy()) - b0;
    const t0 = Date.now();
    await page.mouse.up();
    const up = await afterUp();
    // main-thread time per mouse move (all tasks, Playwright's own evaluate calls included)
    return { ...stats(frames), busyPerMoveMs: +(perMove / MOVES).toFixed(2), upMs: +up.toFixed(1), wallUpMs: Date.now() - t0 };
  };
  // one copy (row 2, column 3: x 0.3 + 3 × 2.7, y 0.3 + 2 × 2.3; grabbed at its centre) moved 3 in right and 2 in down
  const one = await drag({ x: 8.4 + 1.25, y: 4.9 + 1.25 }, { x: 11.4 + 1.25, y: 6.9 + 1.25 });
  // a band from the left of the sheet over the first seven rows (about 50 copies)
  const band = await drag({ x: -0.15, y: 0.1 }, { x: 21.9, y: 14.2 });
  const selected = Number(await page.locator("[data-selected]").getAttribute("data-selected"));
  // the selection carried 1.5 in down by one of its copies (row 0, column 0)
  const sumY = async () => Number(await page.locator("[data-sumy]").getAttribute("data-sumy"));
  const y0 = await sumY();
  const many = await drag({ x: 0.3 + 1.25, y: 0.3 + 1.25 }, { x: 0.3 + 1.25, y: 1.8 + 1.25 });
  // each selected copy moved by the same 1.5 in (a check that the gesture did what it says)
  many.movedIn = +((await sumY()) - y0) / selected;
  if (Math.abs(many.movedIn - 1.5) > 0.02) throw new Error(`${arm}: the selection moved ${many.movedIn} in, not 1.5`);
  await page.close();
  return { arm, one, band: { ...band, selected }, many };
}

const results = [];
for (const arm of ["before", "after", "after", "before"]) {
  const r = await run(arm);
  console.log(JSON.stringify(r));
  results.push(r);
}
await browser.close();
server.close();

const avg = (arm, path) => {
  const v = results.filter((r) => r.arm === arm).map((r) => path.split(".").reduce((o, k) => o[k], r));
  return +(v.reduce((a, b) => a + b, 0) / v.length).toFixed(1);
};
console.log(`\nCPU throttle ${THROTTLE}x, ${MOVES} mouse moves per gesture, mean of two runs per arm`);
console.log("| scenario | arm | frames/s | p95 frame ms | worst frame ms | main thread per move ms | release → next frame ms |");
console.log("|---|---|---|---|---|---|---|");
for (const [name, key] of [["drag 1 copy", "one"], ["box-select ~50", "band"], ["drag 50 copies", "many"]])
  for (const arm of ["before", "after"]) console.log(`| ${name} | ${arm} | ${avg(arm, `${key}.fps`)} | ${avg(arm, `${key}.p95`)} | ${avg(arm, `${key}.max`)} | ${avg(arm, `${key}.busyPerMoveMs`)} | ${avg(arm, `${key}.upMs`)} |`);
