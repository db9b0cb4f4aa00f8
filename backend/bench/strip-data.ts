/** Loading the strip-packing benchmark instances of ../shared/bench-data/strip. */
import * as fs from 'fs';
import * as path from 'path';
import { parseStripInstance, StripInstance } from '../src/gangsheet/pack/bench-format';

export const STRIP_DIR = path.resolve(__dirname, '../../../shared/bench-data/strip');

export interface BenchInstance extends StripInstance {
  set: string;
  name: string;
  /** Optimal height with 90° rotation allowed (what the README gives for rotation). */
  opt: number;
}

/** ngcut is the only set whose optimum depends on rotation; the README tabulates both. */
const NGCUT_ROT: Record<string, number> = {
  ngcut01: 20, ngcut02: 28, ngcut03: 28, ngcut04: 18, ngcut05: 36, ngcut06: 29,
  ngcut07: 10, ngcut08: 33, ngcut09: 49, ngcut10: 59, ngcut11: 51, ngcut12: 77,
};

export function loadSet(set: string): BenchInstance[] {
  const csv = fs.readFileSync(path.join(STRIP_DIR, 'optima.csv'), 'utf8').trim().split('\n').slice(1);
  const out: BenchInstance[] = [];
  for (const line of csv) {
    const cols = line.split(',');
    if (cols[0] !== set) continue;
    const name = cols[1];
    const inst = parseStripInstance(fs.readFileSync(path.join(STRIP_DIR, set, `${name}.txt`), 'utf8'));
    const opt = set === 'ngcut' ? NGCUT_ROT[name] : Number(cols[5]);
    out.push({ ...inst, set, name, opt });
  }
  return out;
}
