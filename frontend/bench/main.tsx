// The editor's canvas alone with a synthetic true-shape print of 400 copies (four designs with
// transparent outlines, nested so that neighbours' boxes overlap and only their ink keeps the
// gap), for `npm run bench:editor`. ?arm=before draws it with the canvas as it was before the
// speed work (LayoutCanvasBefore.tsx), ?arm=after with the current one. The page records its
// frames (requestAnimationFrame) between window.__bench.start() and .stop().
import { StrictMode, useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { DesignImage } from "../src/api/types";
import { findProblems, type EditorCopy, type EditorSettings } from "../src/components/prints/layout-editor/editorModel";
import { LayoutCanvas } from "../src/components/prints/layout-editor/LayoutCanvas";
import type { LayoutShapes } from "../src/components/prints/layout-editor/shapeCheck";
import { LayoutCanvasBefore } from "./LayoutCanvasBefore";

const S: EditorSettings = { width: 22, maxLength: 100, gap: 0.125, margin: 0.25, dpi: 300, rotate: true, nesting: "shape" };
const SRC = 400;
const WIDTH_IN = 2.5;
const INK: ((x: number, y: number) => boolean)[] = [
  (x, y) => Math.hypot(x - 200, y - 200) <= 200,
  (x, y) => {
    const a = Math.atan2(y - 200, x - 200);
    const r = Math.hypot(x - 200, y - 200);
    return r <= 120 + 80 * Math.cos(5 * a);
  },
  (x, y) => y >= 400 - 2 * Math.min(x, 400 - x) && y <= 400,
  (x, y) => Math.hypot(x - 200, y - 200) <= 200 && Math.hypot(x - 270, y - 170) > 150,
];
const COLORS = ["#ef4444", "#0ea5e9", "#22c55e", "#a855f7"];

function design(i: number) {
  const c = document.createElement("canvas");
  c.width = SRC;
  c.height = SRC;
  const ctx = c.getContext("2d")!;
  const img = ctx.createImageData(SRC, SRC);
  const rgb = COLORS[i].match(/\w\w/g)!.map((h) => parseInt(h, 16));
  const rowBytes = (SRC + 7) >> 3;
  const bits = new Uint8Array(rowBytes * SRC);
  for (let y = 0; y < SRC; y++)
    for (let x = 0; x < SRC; x++) {
      if (!INK[i](x + 0.5, y + 0.5)) continue;
      const o = (y * SRC + x) * 4;
      img.data.set([rgb[0], rgb[1], rgb[2], 255], o);
      bits[y * rowBytes + (x >> 3)] |= 1 << (x & 7);
    }
  ctx.putImageData(img, 0, 0);
  let bin = "";
  for (const b of bits) bin += String.fromCharCode(b);
  const px = Math.round(WIDTH_IN * S.dpi);
  const image: DesignImage = { _id: `img-${i}`, name: `design ${i}`, width: SRC, height: SRC, trim: { left: 0, top: 0, width: SRC, height: SRC }, previewFile: { path: c.toDataURL("image/png") } as DesignImage["previewFile"] };
  const shape = { itemId: `item-${i}`, w: px, h: px, art: { x: 0, y: 0, w: px, h: px }, label: null, mask: { width: SRC, height: SRC, data: btoa(bin) }, reach: 1 + 1.5 * (px / SRC) };
  return { image, shape };
}

const designs = [0, 1, 2, 3].map(design);
const images = new Map(designs.map((d) => [d.image._id, d.image]));
const shapes: LayoutShapes = { cellPx: Math.round(0.02 * S.dpi), dpi: S.dpi, gap: Math.round(S.gap * S.dpi), margin: Math.round(S.margin * S.dpi), rotate: true, designs: designs.map((d) => d.shape) };

/** 400 copies in rows of 8 and 7, each row shifted by half a pitch and pulled up so the boxes of neighbouring rows overlap. */
function initialCopies(): EditorCopy[] {
  const out: EditorCopy[] = [];
  const n = new Map<number, number>();
  for (let row = 0; out.length < 400; row++) {
    const cols = row % 2 ? 7 : 8;
    for (let col = 0; col < cols && out.length < 400; col++) {
      const di = (row * 3 + col) % 4;
      const copy = n.get(di) ?? 0;
      n.set(di, copy + 1);
      const rotation = (([0, 90, 180, 270] as const)[(row + col) % 4]);
      out.push({ key: `item-${di}#${copy}`, itemId: `item-${di}`, imageId: `img-${di}`, copy, sheet: 0, x: Math.round((0.3 + col * 2.7 + (row % 2) * 1.35) * S.dpi) / S.dpi, y: Math.round((0.3 + row * 2.3) * S.dpi) / S.dpi, w: WIDTH_IN, h: WIDTH_IN, rotation: di === 0 ? rotation : 0, pinned: false });
    }
  }
  return out;
}

const W = 1200;
const H = 900;

function App() {
  const arm = new URLSearchParams(location.search).get("arm") ?? "after";
  const [copies, setCopies] = useState(initialCopies);
  const [selected, setSelected] = useState(new Set<string>());
  const problems = useMemo(() => findProblems(copies, S), [copies]);
  const Canvas = arm === "before" ? LayoutCanvasBefore : LayoutCanvas;
  return (
    <div style={{ width: W, height: H }} data-selected={selected.size} data-problems={problems.size} data-sumy={copies.reduce((a, c) => a + c.y, 0)}>
      <Canvas
        copies={copies}
        settings={S}
        sheets={1}
        images={images}
        problems={problems}
        selected={selected}
        onSelect={setSelected}
        onMove={(moves) => {
          const by = new Map(moves.map((m) => [m.key, m]));
          setCopies((list) => list.map((c) => (by.has(c.key) ? { ...c, ...by.get(c.key)! } : c)));
        }}
        width={W}
        height={H}
        zoom={1}
        panMode={false}
        onZoom={() => undefined}
        {...(arm === "before" ? {} : { shapes })}
      />
    </div>
  );
}

const frames: number[] = [];
let recording = false;
const tick = (t: number) => {
  if (recording) frames.push(t);
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
(window as unknown as { __bench: unknown }).__bench = {
  start: () => {
    frames.length = 0;
    recording = true;
  },
  stop: () => {
    recording = false;
    return [...frames];
  },
};

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={new QueryClient()}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
