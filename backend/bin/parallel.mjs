#!/usr/bin/env node
// Runs shell commands at the same time and fails when any fails:
//   node backend/bin/parallel.mjs "npm run check -w backend" "npm test -w frontend"
// Used where each step is mostly single-threaded (tsc, eslint, vite), so a 2-core machine
// runs two of them in the time of one. Each command's output is printed whole when it ends,
// under its name, so the logs of parallel steps never interleave.
import { spawn } from "node:child_process";

const commands = process.argv.slice(2);
if (!commands.length) {
  console.error("usage: node backend/bin/parallel.mjs <command> [<command> ...]");
  process.exit(2);
}

const run = (command) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "0" } });
    const out = [];
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => out.push(d));
    child.on("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const status = code === 0 ? "ok" : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n── ${command} — ${status} in ${seconds} s\n${Buffer.concat(out).toString()}`);
      resolve(code === 0);
    });
  });

const results = await Promise.all(commands.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
