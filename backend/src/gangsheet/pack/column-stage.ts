/**
 * The column stage of the strip search on real orders (search.ts, `packStrip`): the pattern
 * LP's periodic phases (columns.ts) as whole copies, improved by a local search on the real
 * height, with the copies they leave out packed on top by the skyline search.
 */
import { buildColumns, ColumnLayout, ColumnProblem, initialPlan, mutatePlan } from './columns';
import { Rng } from './rng';
import { bestStart, Budget, heightLowerBound, INF, initialOrders, PackedLayout, REAL_ORDER_INSERT_SHARE, searchBelow, snapshot, Stage } from './search';
import { PieceSize, SkylineEvaluator } from './skyline';

/** Share of the column stage's time for the plan search; the rest packs what it leaves out. */
const PLAN_SHARE = 0.8;

/** The copies a column layout left out, with a skyline evaluator standing on its profile. */
function restOf(col: ColumnLayout, pieces: readonly PieceSize[], width: number, rotate: boolean) {
  const rest: number[] = [];
  for (let i = 0; i < pieces.length; i++) if (!col.placed[i]) rest.push(i);
  const sub = rest.map((i) => pieces[i]);
  const ev = new SkylineEvaluator(sub, width, rotate);
  ev.setFloor(col.profile);
  return { rest, sub, ev };
}

/**
 * Height of a column layout with the rest packed on top by the best starting order. Counts
 * as one evaluation: the rest is a few copies, and building the columns costs about as much
 * as one skyline evaluation of the whole order.
 */
function quickHeight(col: ColumnLayout, pieces: readonly PieceSize[], width: number, rotate: boolean): number {
  const { sub, ev } = restOf(col, pieces, width, rotate);
  if (sub.length === 0) return ev.floorTop;
  let best = INF;
  for (const mode of [0, 1] as const) {
    ev.tieBreak = mode;
    for (const seq of initialOrders(sub)) best = Math.min(best, ev.evaluate(seq, INF, false).height);
  }
  return best;
}

/**
 * The column stage (`columns.ts`): the LP's periodic phases, improved as integers by a
 * local search on the real height, then the copies they leave out packed on top of them
 * by the skyline search. Null when the LP places nothing.
 */
export function packOnColumns(prob: ColumnProblem, rng: Rng, budget: Budget, rotate: boolean): PackedLayout | null {
  const { pieces, width } = prob;
  const plan = initialPlan(prob);
  if (plan.length === 0) return null;
  let cur = quickHeight(buildColumns(prob, plan), pieces, width, rotate);
  budget.evaluations++;
  budget.share(PLAN_SHARE, () => {
    while (!budget.spent()) {
      const undo = mutatePlan(prob, plan, rng);
      const h = quickHeight(buildColumns(prob, plan), pieces, width, rotate);
      budget.evaluations++;
      if (h <= cur) cur = h;
      else undo();
    }
  });
  const col = buildColumns(prob, plan);
  const { rest, sub, ev } = restOf(col, pieces, width, rotate);
  const out: PackedLayout = { height: ev.floorTop, x: col.x, y: col.y, rotated: col.rotated, placed: col.placed, evaluations: 0 };
  if (rest.length === 0) return out;
  const start = bestStart(ev, sub, [0, 1], budget);
  let lay = start.layout;
  if (ev.typeW.length > 1) {
    const stage: Stage = {
      packedArea: (seq, H) => ev.evaluate(seq, H, false, true).packedArea,
      layout: (seq, H) => snapshot(ev, ev.evaluate(seq, H, true).height, 0),
      insertShare: REAL_ORDER_INSERT_SHARE,
    };
    const lb = Math.max(heightLowerBound(sub, width, rotate), ev.floorTop, Math.ceil((ev.floorArea + ev.totalArea) / width));
    lay = searchBelow(stage, start.seq, lay, lb, ev, rng, budget).layout;
  }
  rest.forEach((i, k) => {
    out.x[i] = lay.x[k];
    out.y[i] = lay.y[k];
    out.rotated[i] = lay.rotated[k];
    out.placed[i] = lay.placed[k];
  });
  out.height = lay.height;
  return out;
}

