// The editor's canvas (Konva): sheets stacked top to bottom, drawn in inches (the stage is
// scaled to pixels), every copy with its design and its gap as a faint halo around its true
// outline (the ink for "shape" prints, from POST …/layout/shapes), problems in red.
// Konva handles mouse and touch alike; the editor's keyboard lives on the surrounding element.
//
// Speed at a real order's size (docs/frontend.md "Layout editor"): each copy is a memoised
// node drawn from two bitmaps per design made once (its art and its halo, at the zoom's
// resolution), with one hit rectangle that listens; a drag moves the copies it carries to a
// layer of their own so only they are redrawn; the box-select band is drawn imperatively, and
// nothing re-renders React while the pointer moves. The gap by ink is checked here as the
// engine checks it (shapeCheck.ts), so a dragged copy turns red at once.
import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from "react";
import { Group, Layer, Line, Rect, Stage, Text } from "react-konva";
import Konva from "konva";
import type { DesignImage } from "../../../api/types";
import { useLayoutShapes } from "../../../hooks/usePrintLayout";
import { footprint, shownLength, snap, tooCloseAny, type EditorCopy, type EditorSettings } from "./editorModel";
import { ShapeChecker, type LayoutShapes, type PreparedCopy } from "./shapeCheck";
import { CopyNode, type CopyHandlers } from "./CopyNode";
import { BLUE, cacheCarrier, makeSprites, RED, useImageElements } from "./sprites";

const SHEET_SPACING_IN = 1.5;

export interface LayoutCanvasProps {
  copies: EditorCopy[];
  settings: EditorSettings;
  /** Sheets shown (the last one may be empty: a copy dragged there starts it). */
  sheets: number;
  images: Map<string, DesignImage>;
  problems: Map<string, unknown>;
  selected: Set<string>;
  onSelect: (keys: Set<string>) => void;
  /** Copies moved by a drag: their new sheet and position. */
  onMove: (moves: Array<{ key: string; sheet: number; x: number; y: number }>) => void;
  width: number;
  height: number;
  zoom: number;
  /** Dragging the background pans instead of box-selecting. */
  panMode: boolean;
  onZoom: (zoom: number) => void;
  /** The print: its designs' outlines and ink are read for these settings. */
  printId?: string;
  /** The designs' outlines and ink when already at hand (instead of reading them for printId). */
  shapes?: LayoutShapes;
}

export interface LayoutCanvasHandle {
  /** Scrolls so the copy is in view. */
  reveal: (key: string) => void;
  stage: () => Konva.Stage | null;
}

export const LayoutCanvas = forwardRef<LayoutCanvasHandle, LayoutCanvasProps>(function LayoutCanvas(props, ref) {
  const { copies, settings, sheets, images, problems, selected, onSelect, width, height, zoom, panMode, onZoom } = props;
  const stageRef = useRef<Konva.Stage>(null);
  const dragLayer = useRef<Konva.Layer>(null);
  const bandRect = useRef<Konva.Rect>(null);
  const elements = useImageElements(images);
  const fetched = useLayoutShapes(props.shapes ? undefined : props.printId, settings);
  const shapes = props.shapes ?? fetched.data;
  const checker = useMemo(() => (shapes ? new ShapeChecker(shapes, settings.nesting) : null), [shapes, settings.nesting]);
  // pixels per inch at zoom 1: the sheet's width fits the canvas
  const fit = Math.max(4, (width - 24) / settings.width);
  const scale = fit * zoom;
  // the bitmaps' resolution follows the zoom in powers of two (made again only when that step changes)
  const dpr = typeof window === "undefined" ? 1 : window.devicePixelRatio || 1;
  const res = 2 ** Math.ceil(Math.log2(Math.max(8, scale * dpr)));
  const itemImage = useMemo(() => {
    const m = new Map<string, string>();
    for (const c of copies) if (!m.has(c.itemId)) m.set(c.itemId, c.imageId);
    return m;
  }, [copies]);
  const itemKey = [...itemImage].map(([a, b]) => `${a}:${b}`).join(",");
  const sprites = useMemo(
    () => makeSprites(images, elements, checker, itemImage, settings, res),
    // itemImage by its content: a moved copy does not make the bitmaps again
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [images, elements, checker, itemKey, settings, res],
  );
  const [pos, setPos] = useState({ x: 12, y: 12 });
  // a new width (a phone turned, a window resized) fits the sheet again from its top-left
  useEffect(() => setPos({ x: 12, y: 12 }), [width]);
  const lengths = useMemo(() => Array.from({ length: sheets }, (_, i) => shownLength(copies, i, settings)), [copies, sheets, settings]);
  const offsets = useMemo(() => lengths.reduce<number[]>((acc, _, i) => [...acc, i === 0 ? 0 : acc[i - 1] + lengths[i - 1] + SHEET_SPACING_IN], []), [lengths]);
  // the gap by ink, as the engine decides it (box prints: the model's exact box check)
  const inkClose = useMemo(() => (checker?.shape ? checker.problems(copies) : null), [checker, copies]);
  const isBad = (key: string) => problems.has(key) || !!inkClose?.has(key);

  const nodes = useRef(new Map<string, Konva.Group>());
  const register = useCallback((key: string, node: Konva.Group | null) => {
    if (node) nodes.current.set(key, node);
    else nodes.current.delete(key);
  }, []);

  // the handlers read the latest props through a ref, so the memoised copies keep them
  const live = useRef({ props, offsets, lengths, scale, pos, checker, sprites });
  live.current = { props, offsets, lengths, scale, pos, checker, sprites };
  const band = useRef<{ x0: number; y0: number; x1: number; y1: number; add: boolean } | null>(null);
  const drag = useRef<{
    key: string;
    start: Map<string, { x: number; y: number }>;
    carried: Map<string, EditorCopy>;
    /** The carried copies but the grabbed one (several selected). */
    carrier: Konva.Group | null;
    others: PreparedCopy[];
    red: Map<string, boolean>;
  } | null>(null);

  useImperativeHandle(ref, () => ({
    reveal: (key) => {
      const c = copies.find((v) => v.key === key);
      if (!c) return;
      const y = (offsets[c.sheet] + c.y) * scale;
      const x = c.x * scale;
      setPos((p) => ({ x: x + p.x < 0 || x + p.x > width - 40 ? 12 - x + width / 3 : p.x, y: y + p.y < 0 || y + p.y > height - 40 ? 12 - y + height / 3 : p.y }));
    },
    stage: () => stageRef.current,
  }));

  // where a point of the stage (inches) falls: the sheet whose band holds it
  const sheetAt = (y: number) => {
    const { offsets: o, lengths: l } = live.current;
    for (let i = 0; i < o.length; i++) if (y < o[i] + l[i] + SHEET_SPACING_IN / 2) return i;
    return o.length - 1;
  };
  const pointer = () => {
    const p = stageRef.current?.getPointerPosition();
    const { pos: at, scale: k } = live.current;
    return p ? { x: (p.x - at.x) / k, y: (p.y - at.y) / k } : null;
  };

  /** A copy turns red (or back) while it is dragged, without React. */
  const paintDragged = (key: string, bad: boolean) => {
    const n = nodes.current.get(key);
    if (!n) return;
    const outline = n.findOne(".outline") as Konva.Rect | undefined;
    outline?.stroke(bad ? RED : BLUE);
    const c = live.current.props.copies.find((v) => v.key === key);
    const sprite = c && live.current.sprites.get(c.itemId);
    const halo = n.findOne(".halo") as Konva.Image | Konva.Rect | undefined;
    if (sprite?.halo && halo && "image" in halo) {
      (halo as Konva.Image).image(bad ? sprite.haloRed! : sprite.halo);
      halo.opacity(bad ? 0.35 : sprite.inked ? 0.16 : 0.08);
    } else if (halo) (halo as Konva.Rect).fill(bad ? "rgba(220,38,38,0.10)" : "rgba(99,102,241,0.07)");
  };

  const handlers = useMemo<CopyHandlers>(
    () => ({
      pointerDown: (key, e) => {
        e.cancelBubble = true;
        const { selected: sel, onSelect: select } = live.current.props;
        if (e.evt.shiftKey) {
          const next = new Set(sel);
          if (next.has(key)) next.delete(key);
          else next.add(key);
          select(next);
        } else if (!sel.has(key)) select(new Set([key]));
      },
      dragStart: (key) => {
        const { props: p, checker: chk, scale: k } = live.current;
        const moving = p.selected.has(key) ? [...p.selected] : [key];
        const byKey = new Map(p.copies.map((c) => [c.key, c]));
        const start = new Map<string, { x: number; y: number }>();
        const carried = new Map<string, EditorCopy>();
        const layer = dragLayer.current;
        // the copies carried along with the grabbed one ride in one group, drawn from one bitmap
        const carrier = layer && moving.length > 1 ? new Konva.Group({ listening: false }) : null;
        if (carrier) layer!.add(carrier);
        for (const m of moving) {
          const n = nodes.current.get(m);
          const c = byKey.get(m);
          if (!n || !c) continue;
          start.set(m, { x: n.x(), y: n.y() });
          carried.set(m, c);
          // only the carried copies are redrawn while they move
          if (m !== key && carrier) n.moveTo(carrier);
          else if (layer) n.moveTo(layer);
        }
        if (carrier) cacheCarrier(carrier, k);
        layer?.batchDraw();
        copyLayer.current?.batchDraw();
        const others = p.copies.filter((o) => !start.has(o.key));
        drag.current = { key, start, carried, carrier, others: chk ? chk.prepare(others) : [], red: new Map() };
      },
      dragMove: (key, target) => {
        const d = drag.current;
        if (!d) return;
        const { props: p, offsets: o, checker: chk, scale: k } = live.current;
        const s0 = d.start.get(key)!;
        const dx = target.x() - s0.x;
        const dy = target.y() - s0.y;
        d.carrier?.position({ x: dx, y: dy });
        // every carried copy turns red as soon as it comes too close to one that stays (its ink for "shape" prints)
        let repaint = false;
        const stay = chk ? null : p.copies.filter((v) => !d.start.has(v.key));
        for (const [m, c] of d.carried) {
          const at = d.start.get(m)!;
          const sheet = sheetAt(at.y + dy + footprint(c).height / 2);
          const probe = { ...c, sheet, x: snap(at.x + dx, p.settings.dpi), y: snap(at.y + dy - o[sheet], p.settings.dpi) };
          const close = chk ? chk.closeToPrepared(probe, d.others) : p.settings.nesting === "box" && tooCloseAny(probe, stay!, p.settings);
          if (d.red.get(m) !== close) {
            d.red.set(m, close);
            paintDragged(m, close);
            if (m !== key) repaint = true;
          }
        }
        if (repaint && d.carrier) cacheCarrier(d.carrier, k);
      },
      dragEnd: () => {
        const d = drag.current;
        drag.current = null;
        if (!d) return;
        const { props: p, offsets: o } = live.current;
        const grabbed = nodes.current.get(d.key);
        const dx = grabbed ? grabbed.x() - d.start.get(d.key)!.x : 0;
        const dy = grabbed ? grabbed.y() - d.start.get(d.key)!.y : 0;
        const moves = [...d.carried].map(([m, v]) => {
          const at = d.start.get(m)!;
          const sheet = sheetAt(at.y + dy + footprint(v).height / 2);
          return { key: m, sheet, x: snap(at.x + dx, p.settings.dpi), y: snap(at.y + dy - o[sheet], p.settings.dpi) };
        });
        // back among the others, where they were dropped, before React places them anew
        const layer = copyLayer.current;
        for (const [m] of d.carried) {
          const n = nodes.current.get(m);
          if (!n || !layer) continue;
          const at = d.start.get(m)!;
          n.moveTo(layer);
          n.position({ x: at.x + dx, y: at.y + dy });
        }
        d.carrier?.destroy();
        dragLayer.current?.batchDraw();
        layer?.batchDraw();
        p.onMove(moves);
      },
    }),
    [],
  );
  const copyLayer = useRef<Konva.Layer>(null);

  const drawBand = () => {
    const b = band.current;
    const r = bandRect.current;
    if (!r) return;
    r.visible(!!b);
    if (b) r.setAttrs({ x: Math.min(b.x0, b.x1), y: Math.min(b.y0, b.y1), width: Math.abs(b.x1 - b.x0), height: Math.abs(b.y1 - b.y0) });
    dragLayer.current?.batchDraw();
  };
  const startBand = (e: Konva.KonvaEventObject<PointerEvent>) => {
    if (panMode) return;
    const onCopy = e.target.findAncestor?.(".copy", true);
    if (onCopy) return;
    const p = pointer();
    if (!p) return;
    band.current = { x0: p.x, y0: p.y, x1: p.x, y1: p.y, add: e.evt.shiftKey };
    drawBand();
  };
  const moveBand = () => {
    if (!band.current) return;
    const p = pointer();
    if (!p) return;
    band.current.x1 = p.x;
    band.current.y1 = p.y;
    drawBand();
  };
  const endBand = () => {
    const b = band.current;
    if (!b) return;
    band.current = null;
    drawBand();
    const [x0, x1] = [Math.min(b.x0, b.x1), Math.max(b.x0, b.x1)];
    const [y0, y1] = [Math.min(b.y0, b.y1), Math.max(b.y0, b.y1)];
    const tiny = x1 - x0 < 0.05 && y1 - y0 < 0.05;
    const hit = tiny
      ? []
      : copies.filter((c) => {
          const f = footprint(c);
          const top = offsets[c.sheet] + f.y;
          return f.x < x1 && f.x + f.width > x0 && top < y1 && top + f.height > y0;
        });
    const next = new Set(b.add ? selected : []);
    for (const c of hit) next.add(c.key);
    onSelect(next);
  };

  const cropped = useMemo(() => {
    const m = new Map<string, { el: HTMLImageElement; crop?: { x: number; y: number; width: number; height: number } }>();
    for (const [id, el] of elements) {
      const img = images.get(id);
      const k = img?.width ? el.naturalWidth / img.width : 1;
      const t = img?.trim;
      m.set(id, { el, crop: t ? { x: t.left * k, y: t.top * k, width: t.width * k, height: t.height * k } : undefined });
    }
    return m;
  }, [elements, images]);

  return (
    // the mapping from inches to the canvas, for tests and tools: client = origin + inches × ppi (sheet i starts at offsets[i]);
    // the outlines drawn (ink or box) and how many copies are shown in red
    <div data-testid="layout-canvas" data-ppi={scale} data-ox={pos.x} data-oy={pos.y} data-offsets={offsets.join(",")} data-outlines={checker?.shape ? "ink" : "box"} data-red={copies.filter((c) => isBad(c.key)).length}>
    <Stage
      ref={stageRef}
      width={width}
      height={height}
      x={pos.x}
      y={pos.y}
      scaleX={scale}
      scaleY={scale}
      draggable={panMode}
      onDragEnd={(e) => e.target === stageRef.current && setPos({ x: e.target.x(), y: e.target.y() })}
      onPointerDown={startBand}
      onPointerMove={moveBand}
      onPointerUp={endBand}
      onWheel={(e) => {
        e.evt.preventDefault();
        if (e.evt.ctrlKey || e.evt.metaKey) {
          onZoom(Math.min(8, Math.max(0.25, zoom * (e.evt.deltaY < 0 ? 1.1 : 1 / 1.1))));
          return;
        }
        setPos((p) => ({ x: p.x - e.evt.deltaX, y: p.y - e.evt.deltaY }));
      }}
      style={{ background: "#e2e8f0", touchAction: "none", cursor: panMode ? "grab" : "default" }}
    >
      {/* one layer for the sheets and the copies, one for what moves: two canvases to composite */}
      <Layer ref={copyLayer}>
        {lengths.map((len, i) => (
          <Group key={`sheet-${i}`} y={offsets[i]} listening={false}>
            <Rect width={settings.width} height={len} fill="#fff" stroke="#94a3b8" strokeWidth={1} strokeScaleEnabled={false} />
            {settings.margin > 0 && (
              <Rect
                x={settings.margin}
                y={settings.margin}
                width={settings.width - 2 * settings.margin}
                height={Math.max(0, Math.min(len, settings.maxLength) - 2 * settings.margin)}
                stroke="#94a3b8"
                dash={[4, 4]}
                strokeWidth={1}
                strokeScaleEnabled={false}
              />
            )}
            {settings.maxLength < len && (
              <>
                <Line points={[0, settings.maxLength, settings.width, settings.maxLength]} stroke={RED} strokeWidth={1.5} dash={[6, 4]} strokeScaleEnabled={false} />
                <Text x={0.1} y={settings.maxLength + 0.05} text={`max length ${settings.maxLength} in`} fontSize={12 / scale} fill={RED} />
              </>
            )}
            <Text x={0} y={-14 / scale - 0.02} text={`Sheet ${i + 1}`} fontSize={12 / scale} fill="#334155" />
          </Group>
        ))}
        {copies.map((c) => (
          <CopyNode
            key={c.key}
            c={c}
            top={offsets[c.sheet] ?? 0}
            bad={isBad(c.key)}
            selected={selected.has(c.key)}
            draggable={!panMode}
            sprite={sprites.get(c.itemId)}
            image={cropped.get(c.imageId)}
            gap={settings.gap}
            badgeScale={c.pinned ? scale : 0}
            register={register}
            handlers={handlers}
          />
        ))}
      </Layer>
      {/* the copies being dragged, drawn apart from the rest, and the box-select band */}
      <Layer ref={dragLayer}>
        <Rect ref={bandRect} visible={false} fill="rgba(37,99,235,0.08)" stroke={BLUE} dash={[4, 3]} strokeWidth={1} strokeScaleEnabled={false} listening={false} />
      </Layer>
    </Stage>
    </div>
  );
});
