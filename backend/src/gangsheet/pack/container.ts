/**
 * Filling one container of fixed width and height with as much area as possible (every sheet
 * but the last of an order that needs several, sheets.ts): the same skyline heuristic and
 * sequence moves as the strip search (search.ts), scored by the packed area.
 */
import { Rng } from './rng';
import { Budget, initialOrders, PackedLayout, SearchOptions, snapshot, tieBreakModes } from './search';
import { PieceSize, SkylineEvaluator } from './skyline';

/**
 * Fill one container of width x height with as much area as possible (used for all but the
 * last sheet when an order needs several sheets). Pieces left out have placed[i] = 0.
 */
export function fillContainer(
  pieces: readonly PieceSize[],
  width: number,
  height: number,
  rotate: boolean,
  opts: SearchOptions,
): PackedLayout {
  const ev = new SkylineEvaluator(pieces, width, rotate);
  const budget = new Budget(opts);
  const rng = new Rng(opts.seed ?? 1);
  let bestSeq = initialOrders(pieces)[0];
  let bestArea = -1;
  let bestMode: 0 | 1 = 0;
  const modes = tieBreakModes(ev);
  for (const mode of modes) {
    ev.tieBreak = mode;
    for (const seq of initialOrders(pieces)) {
      const r = ev.evaluate(seq, height, false);
      budget.evaluations++;
      if (r.packedArea > bestArea) {
        bestArea = r.packedArea;
        bestSeq = seq;
        bestMode = mode;
      }
    }
  }
  ev.tieBreak = bestMode;
  const seq = bestSeq.slice();
  if (bestArea < ev.totalArea) improveFill(ev, seq, height, rng, budget);
  const r = ev.evaluate(seq, height, true);
  return snapshot(ev, r.height, budget.evaluations + 1);
}

/** Like improveAtHeight but without the early abort: here the packed area itself is the goal. */
function improveFill(ev: SkylineEvaluator, seq: Int32Array, H: number, rng: Rng, budget: Budget): void {
  const n = seq.length;
  let cur = ev.evaluate(seq, H, false).packedArea;
  budget.evaluations++;
  const typeOf = ev.typeOf;
  while (!budget.spent() && cur < ev.totalArea && ev.typeW.length > 1) {
    const i = rng.int(n);
    const j = rng.int(n);
    if (typeOf[seq[i]] === typeOf[seq[j]]) {
      budget.evaluations++; // count no-op draws so an all-identical order still terminates
      continue;
    }
    let t = seq[i];
    seq[i] = seq[j];
    seq[j] = t;
    const s = ev.evaluate(seq, H, false).packedArea;
    budget.evaluations++;
    if (s >= cur) cur = s;
    else {
      t = seq[i];
      seq[i] = seq[j];
      seq[j] = t;
    }
  }
}
