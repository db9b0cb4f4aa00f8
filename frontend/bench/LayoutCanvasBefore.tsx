// The layout editor's canvas as it was before the speed work (frozen copy): the "before" arm of `npm run bench:editor`.
// The editor's canvas (Konva): sheets stacked top to bottom, drawn in inches (the stage is
// scaled to pixels), every copy with its design, its gap as a faint halo, problems in red.
// Konva handles mouse and touch alike; the editor's keyboard lives on the surrounding element.
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef, useState } from "react";
import { Group, Image as KImage, Layer, Line, Rect, Stage, Text } from "react-konva";
import type Konva from "konva";
import type { DesignImage } from "../src/api/types";
import { footprint, labelBox, shownLength, snap, tooCloseAny, type EditorCopy, type EditorSettings } from "../src/components/prints/layout-editor/editorModel";

const SHEET_SPACING_IN = 1.5;
const RED = "#dc2626";
const BLUE = "#2563eb";

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
}

export interface LayoutCanvasHandle {
  /** Scrolls so the copy is in view. */
  reveal: (key: string) => void;
  stage: () => Konva.Stage | null;
}

/** The designs' preview images, loaded once per image. */
function useImageElements(images: Map<string, DesignImage>) {
  const [loaded, setLoaded] = useState(new Map<string, HTMLImageElement>());
  const urls = useMemo(() => [...images.values()].map((i) => [i._id, i.previewFile?.path ?? i.file?.path] as const).filter(([, u]) => !!u), [images]);
  useEffect(() => {
    let live = true;
    for (const [id, url] of urls) {
      const el = new window.Image();
      el.onload = () => live && setLoaded((m) => new Map(m).set(id, el));
      el.src = url!;
    }
    return () => {
      live = false;
    };
  }, [urls]);
  return loaded;
}

export const LayoutCanvasBefore = forwardRef<LayoutCanvasHandle, LayoutCanvasProps>(function LayoutCanvas(props, ref) {
  const { copies, settings, sheets, images, problems, selected, onSelect, onMove, width, height, zoom, panMode, onZoom } = props;
  const stageRef = useRef<Konva.Stage>(null);
  const elements = useImageElements(images);
  // pixels per inch at zoom 1: the sheet's width fits the canvas
  const fit = Math.max(4, (width - 24) / settings.width);
  const scale = fit * zoom;
  const [pos, setPos] = useState({ x: 12, y: 12 });
  // a new width (a phone turned, a window resized) fits the sheet again from its top-left
  useEffect(() => setPos({ x: 12, y: 12 }), [width]);
  const lengths = useMemo(() => Array.from({ length: sheets }, (_, i) => shownLength(copies, i, settings)), [copies, sheets, settings]);
  const offsets = useMemo(() => lengths.reduce<number[]>((acc, _, i) => [...acc, i === 0 ? 0 : acc[i - 1] + lengths[i - 1] + SHEET_SPACING_IN], []), [lengths]);
  const [band, setBand] = useState<{ x0: number; y0: number; x1: number; y1: number; add: boolean } | null>(null);
  const drag = useRef<{ key: string; start: Map<string, { x: number; y: number }> } | null>(null);

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
    for (let i = 0; i < sheets; i++) if (y < offsets[i] + lengths[i] + SHEET_SPACING_IN / 2) return i;
    return sheets - 1;
  };
  const pointer = () => {
    const p = stageRef.current?.getPointerPosition();
    return p ? { x: (p.x - pos.x) / scale, y: (p.y - pos.y) / scale } : null;
  };

  const startBand = (e: Konva.KonvaEventObject<PointerEvent>) => {
    if (panMode) return;
    const onCopy = e.target.findAncestor?.(".copy", true);
    if (onCopy) return;
    const p = pointer();
    if (!p) return;
    setBand({ x0: p.x, y0: p.y, x1: p.x, y1: p.y, add: e.evt.shiftKey });
  };
  const moveBand = () => {
    if (!band) return;
    const p = pointer();
    if (p) setBand({ ...band, x1: p.x, y1: p.y });
  };
  const endBand = () => {
    if (!band) return;
    const [x0, x1] = [Math.min(band.x0, band.x1), Math.max(band.x0, band.x1)];
    const [y0, y1] = [Math.min(band.y0, band.y1), Math.max(band.y0, band.y1)];
    const tiny = x1 - x0 < 0.05 && y1 - y0 < 0.05;
    const hit = tiny
      ? []
      : copies.filter((c) => {
          const f = footprint(c);
          const top = offsets[c.sheet] + f.y;
          return f.x < x1 && f.x + f.width > x0 && top < y1 && top + f.height > y0;
        });
    const next = new Set(band.add ? selected : []);
    for (const c of hit) next.add(c.key);
    onSelect(next);
    setBand(null);
  };

  const copyNode = (key: string) => stageRef.current?.findOne((n: Konva.Node) => n.id() === `copy-${key}`) as unknown as Konva.Group | undefined;

  return (
    // the mapping from inches to the canvas, for tests and tools: client = origin + inches × ppi (sheet i starts at offsets[i])
    <div data-testid="layout-canvas" data-ppi={scale} data-ox={pos.x} data-oy={pos.y} data-offsets={offsets.join(",")}>
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
      <Layer listening={false}>
        {lengths.map((len, i) => (
          <Group key={i} y={offsets[i]}>
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
      </Layer>
      <Layer>
        {copies.map((c) => {
          const f = footprint(c);
          const bad = problems.has(c.key);
          const isSel = selected.has(c.key);
          const el = elements.get(c.imageId);
          const img = images.get(c.imageId);
          const k = el && img?.width ? el.naturalWidth / img.width : 1;
          const t = img?.trim;
          const crop = el && t ? { x: t.left * k, y: t.top * k, width: t.width * k, height: t.height * k } : undefined;
          const place = c.rotation === 90 ? { x: f.width, y: 0 } : c.rotation === 180 ? { x: f.width, y: f.height } : c.rotation === 270 ? { x: 0, y: f.height } : { x: 0, y: 0 };
          const gap = settings.gap;
          const lb = labelBox(c);
          return (
            <Group
              key={c.key}
              id={`copy-${c.key}`}
              name="copy"
              x={c.x}
              y={offsets[c.sheet] + c.y}
              draggable={!panMode}
              onPointerDown={(e) => {
                e.cancelBubble = true;
                if (e.evt.shiftKey) {
                  const next = new Set(selected);
                  if (next.has(c.key)) next.delete(c.key);
                  else next.add(c.key);
                  onSelect(next);
                } else if (!selected.has(c.key)) onSelect(new Set([c.key]));
              }}
              onDragStart={() => {
                const moving = selected.has(c.key) ? [...selected] : [c.key];
                const start = new Map<string, { x: number; y: number }>();
                for (const key of moving) {
                  const n = copyNode(key);
                  if (n) start.set(key, { x: n.x(), y: n.y() });
                }
                drag.current = { key: c.key, start };
              }}
              onDragMove={(e) => {
                const d = drag.current;
                if (!d) return;
                const s0 = d.start.get(c.key)!;
                const dx = e.target.x() - s0.x;
                const dy = e.target.y() - s0.y;
                for (const [key, s] of d.start) if (key !== c.key) copyNode(key)?.position({ x: s.x + dx, y: s.y + dy });
                // the dragged copy turns red as soon as it comes too close (its box; the server decides shapes on drop)
                const sheet = sheetAt(e.target.y() + f.height / 2);
                const probe = { ...c, sheet, x: e.target.x(), y: e.target.y() - offsets[sheet] };
                const outline = (e.target as unknown as Konva.Group).findOne(".outline") as Konva.Rect | undefined;
                const close = settings.nesting === "box" && tooCloseAny(probe, copies.filter((o) => !d.start.has(o.key)), settings);
                outline?.stroke(close ? RED : BLUE);
              }}
              onDragEnd={() => {
                const d = drag.current;
                drag.current = null;
                if (!d) return;
                const moves = [...d.start.keys()].flatMap((key) => {
                  const n = copyNode(key);
                  const v = copies.find((x) => x.key === key);
                  if (!n || !v) return [];
                  const h = footprint(v).height;
                  const sheet = sheetAt(n.y() + h / 2);
                  return [{ key, sheet, x: snap(n.x(), settings.dpi), y: snap(n.y() - offsets[sheet], settings.dpi) }];
                });
                onMove(moves);
              }}
            >
              {gap > 0 && <Rect x={-gap / 2} y={-gap / 2} width={f.width + gap} height={f.height + gap} fill={bad ? "rgba(220,38,38,0.10)" : "rgba(99,102,241,0.07)"} listening={false} />}
              <Rect width={f.width} height={f.height} fill="rgba(148,163,184,0.12)" />
              {lb && <Rect name="label" x={lb.x} y={lb.y} width={lb.width} height={lb.height} fill="#fff" stroke="rgba(15,23,42,0.55)" strokeWidth={1} strokeScaleEnabled={false} dash={[3, 2]} listening={false} />}
              {el && <KImage image={el} crop={crop} x={place.x} y={place.y} width={c.w} height={c.h} rotation={c.rotation} listening={false} perfectDrawEnabled={false} />}
              {bad && <Rect width={f.width} height={f.height} fill="rgba(220,38,38,0.28)" listening={false} />}
              <Rect
                name="outline"
                width={f.width}
                height={f.height}
                stroke={bad ? RED : isSel ? BLUE : "rgba(71,85,105,0.5)"}
                strokeWidth={bad || isSel ? 2 : 1}
                strokeScaleEnabled={false}
              />
              {c.pinned && (
                <Group x={f.width} y={0} listening={false}>
                  <Rect x={-14 / scale} y={0} width={14 / scale} height={14 / scale} fill="#f59e0b" cornerRadius={3 / scale} />
                  <Text x={-11 / scale} y={2 / scale} text="P" fontSize={11 / scale} fontStyle="bold" fill="#fff" />
                </Group>
              )}
            </Group>
          );
        })}
        {band && (
          <Rect
            x={Math.min(band.x0, band.x1)}
            y={Math.min(band.y0, band.y1)}
            width={Math.abs(band.x1 - band.x0)}
            height={Math.abs(band.y1 - band.y0)}
            fill="rgba(37,99,235,0.08)"
            stroke={BLUE}
            dash={[4, 3]}
            strokeWidth={1}
            strokeScaleEnabled={false}
            listening={false}
          />
        )}
      </Layer>
    </Stage>
    </div>
  );
});
