/**
 * Command line for benchmarks, support and batch use. It lives outside the engine folder
 * so the engine imports nothing of the app.
 *
 *   gangsheet pack FILE [--width W] [--gap G] [--margin M] [--no-rotate] [--max-length L] [--time-limit-ms T]
 *   gangsheet build JOB.json --out DIR [--time-limit-ms T] [--threads N]
 *   gangsheet nest FILE.json [--time-limit-ms T] [--cells N] [--threads N]
 *
 * JOB.json's "sheet" may hold "formats": ["png", "pdf"] (default ["png"]): sheet-N.png
 * and/or sheet-N.pdf.
 *
 * Relative paths are resolved against the directory the user ran npm from (INIT_CWD),
 * because npm runs the script with backend/ as its working directory.
 */
import * as fs from 'fs';
import * as path from 'path';
import { availableParallelism } from 'os';
import { parseStripInstance } from '../gangsheet/pack/bench-format';
import { packSheets } from '../gangsheet/pack/sheets';
import { buildJob } from '../gangsheet/build';
import { parseEsicup } from '../gangsheet/shape/esicup';
import { nestEsicupParallel } from '../gangsheet/shape/esicup-parallel';
import { invocationDir } from '../config/invocation';

const USAGE = `usage:
  gangsheet pack FILE [--width W] [--gap G] [--margin M] [--no-rotate] [--max-length L] [--time-limit-ms T]
  gangsheet build JOB.json --out DIR [--time-limit-ms T] [--threads N]   (JOB.json "sheet.formats": ["png", "pdf"]; default: 2 threads where there are 2 cores)
  gangsheet nest FILE.json [--time-limit-ms T] [--cells N] [--threads N]   (default: one search per core)`;

function userPath(p: string): string {
  return path.resolve(invocationDir(), p);
}

interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

function parseArgs(argv: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
      else if (a === '--no-rotate') flags.set('no-rotate', true);
      else if (i + 1 < argv.length) flags.set(a.slice(2), argv[++i]);
      else throw new Error(`missing value for ${a}`);
    } else positional.push(a);
  }
  return { positional, flags };
}

function numFlag(flags: Parsed['flags'], name: string): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a non-negative number`);
  return n;
}

/** Decimal places needed to make a value an integer (capped: sizes finer than 1e-4 are noise). */
function decimals(v: number): number {
  for (let d = 0; d <= 4; d++) if (Math.abs(Math.round(v * 10 ** d) - v * 10 ** d) < 1e-9) return d;
  return 4;
}

export function runPack(file: string, flags: Parsed['flags']): string {
  const known = new Set(['width', 'gap', 'margin', 'no-rotate', 'max-length', 'time-limit-ms']);
  for (const k of flags.keys()) if (!known.has(k)) throw new Error(`unknown option --${k}`);
  const inst = parseStripInstance(fs.readFileSync(userPath(file), 'utf8'));
  const width = numFlag(flags, 'width') ?? inst.width;
  const gap = numFlag(flags, 'gap') ?? 0;
  const margin = numFlag(flags, 'margin') ?? 0;
  const maxLength = numFlag(flags, 'max-length') ?? Infinity;
  const timeLimitMs = numFlag(flags, 'time-limit-ms') ?? 2000;
  // the packer works on integers; scale fractional inputs by a power of ten and back
  const values = [width, gap, margin, ...inst.pieces.flatMap((p) => [p.w, p.h])];
  if (Number.isFinite(maxLength)) values.push(maxLength);
  const scale = 10 ** Math.max(...values.map(decimals));
  const toUnits = (v: number) => Math.round(v * scale);
  const sheets = packSheets(
    inst.pieces.map((p) => ({ w: toUnits(p.w), h: toUnits(p.h) })),
    {
      width: toUnits(width),
      gap: toUnits(gap),
      margin: toUnits(margin),
      maxLength: Number.isFinite(maxLength) ? toUnits(maxLength) : Infinity,
      rotate: !flags.has('no-rotate'),
    },
    { timeLimitMs },
  );
  const back = (v: number) => v / scale;
  return JSON.stringify({
    sheets: sheets.map((s) => ({
      length: back(s.length),
      placements: [...s.placements]
        .sort((a, b) => a.index - b.index)
        .map((p) => ({ index: p.index, x: back(p.x), y: back(p.y), width: back(p.w), height: back(p.h), rotated: p.rotated })),
    })),
  });
}

/** ESICUP instance (jagua-rs/sparrow JSON) -> {"length", "placements"} (default 30 s). */
export async function runNest(file: string, flags: Parsed['flags']): Promise<string> {
  const known = new Set(['time-limit-ms', 'cells', 'threads']);
  for (const k of flags.keys()) if (!known.has(k)) throw new Error(`unknown option --${k}`);
  const inst = parseEsicup(fs.readFileSync(userPath(file), 'utf8'));
  const sol = await nestEsicupParallel(inst, {
    timeLimitMs: numFlag(flags, 'time-limit-ms') ?? 30000,
    cellsAcross: numFlag(flags, 'cells'),
    threads: numFlag(flags, 'threads'),
  });
  return JSON.stringify(sol);
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const args = parseArgs(rest);
  if (cmd === 'pack') {
    if (args.positional.length !== 1) throw new Error(USAGE);
    process.stdout.write(runPack(args.positional[0], args.flags) + '\n');
    return 0;
  }
  if (cmd === 'nest') {
    if (args.positional.length !== 1) throw new Error(USAGE);
    process.stdout.write((await runNest(args.positional[0], args.flags)) + '\n');
    return 0;
  }
  if (cmd === 'build') {
    const out = args.flags.get('out');
    if (args.positional.length !== 1 || typeof out !== 'string') throw new Error(USAGE);
    const report = await buildJob(userPath(args.positional[0]), userPath(out), {
      timeLimitMs: numFlag(args.flags, 'time-limit-ms'),
      threads: numFlag(args.flags, 'threads') ?? Math.min(2, availableParallelism()),
      onProgress: (p) => process.stderr.write(`\r${p.stage} ${p.percent.toFixed(0)}%   `),
    });
    process.stderr.write('\n');
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    return 0;
  }
  throw new Error(USAGE);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`gangsheet: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
