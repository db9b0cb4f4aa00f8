// One copy on the editor's canvas: its halo, art, order label space, box and pin badge, placed
// and turned as the copy is. Memoised, so moving one copy redraws only that copy.
import { memo, useCallback, type ReactNode } from "react";
import { Group, Image as KImage, Rect, Text } from "react-konva";
import type Konva from "konva";
import { footprint, labelBox, type EditorCopy } from "./editorModel";
import { turnRect } from "./shapeCheck";
import { BLUE, RED, type Sprite } from "./sprites";

/** Where an upright w × h image goes, relative to the turned box's top-left, to show it turned by `rotation`. */
const turnedAt = (rotation: number, tw: number, th: number) =>
  rotation === 90 ? { x: tw, y: 0 } : rotation === 180 ? { x: tw, y: th } : rotation === 270 ? { x: 0, y: th } : { x: 0, y: 0 };

export interface CopyNodeProps {
  c: EditorCopy;
  top: number;
  bad: boolean;
  selected: boolean;
  draggable: boolean;
  sprite?: Sprite;
  /** The art when there is no sprite yet (box prints before the shapes arrive). */
  image?: { el: HTMLImageElement; crop?: { x: number; y: number; width: number; height: number } };
  gap: number;
  /** Pixels per inch (for the pin badge's size); 0 when the copy is not pinned. */
  badgeScale: number;
  register: (key: string, node: Konva.Group | null) => void;
  handlers: CopyHandlers;
}

export interface CopyHandlers {
  pointerDown: (key: string, e: Konva.KonvaEventObject<PointerEvent>) => void;
  dragStart: (key: string) => void;
  dragMove: (key: string, node: Konva.Group) => void;
  dragEnd: () => void;
}

/** One copy. Memoised: a copy re-renders only when it, its state or the zoom's badge size changes. */
export const CopyNode = memo(function CopyNode({ c, top, bad, selected, draggable, sprite, image, gap, badgeScale, register, handlers }: CopyNodeProps) {
  const f = footprint(c);
  const lb = labelBox(c);
  const ref = useCallback((n: Konva.Group | null) => register(c.key, n), [register, c.key]);
  let halo: ReactNode = null;
  let art: ReactNode = null;
  if (sprite) {
    // the footprint's top-left relative to the art's, as placed
    const q = c.rotation / 90;
    const [ax0, ay0] = turnRect([sprite.art0.x, sprite.art0.y, sprite.art0.x + sprite.art0.w, sprite.art0.y + sprite.art0.h], sprite.fw, sprite.fh, q);
    const odd = q % 2 === 1;
    const tw = (odd ? sprite.fh : sprite.fw) + 2 * sprite.pad;
    const th = (odd ? sprite.fw : sprite.fh) + 2 * sprite.pad;
    const h0 = turnedAt(c.rotation, tw, th);
    const hs = sprite.halo && (bad ? sprite.haloRed : sprite.halo);
    if (hs)
      halo = (
        <KImage
          name="halo"
          image={hs}
          x={-ax0 - sprite.pad + h0.x}
          y={-ay0 - sprite.pad + h0.y}
          width={sprite.fw + 2 * sprite.pad}
          height={sprite.fh + 2 * sprite.pad}
          rotation={c.rotation}
          opacity={bad ? 0.35 : sprite.inked ? 0.16 : 0.08}
          listening={false}
          perfectDrawEnabled={false}
        />
      );
    if (sprite.art) {
      const p = turnedAt(c.rotation, f.width, f.height);
      art = <KImage image={sprite.art} x={p.x} y={p.y} width={c.w} height={c.h} rotation={c.rotation} listening={false} perfectDrawEnabled={false} />;
    }
  } else {
    if (gap > 0) halo = <Rect name="halo" x={-gap / 2} y={-gap / 2} width={f.width + gap} height={f.height + gap} fill={bad ? "rgba(220,38,38,0.10)" : "rgba(99,102,241,0.07)"} listening={false} perfectDrawEnabled={false} />;
    if (image) {
      const p = turnedAt(c.rotation, f.width, f.height);
      art = <KImage image={image.el} crop={image.crop} x={p.x} y={p.y} width={c.w} height={c.h} rotation={c.rotation} listening={false} perfectDrawEnabled={false} />;
    }
  }
  const inked = !!sprite?.inked;
  return (
    <Group
      ref={ref}
      id={`copy-${c.key}`}
      name="copy"
      x={c.x}
      y={top + c.y}
      draggable={draggable}
      onPointerDown={(e) => handlers.pointerDown(c.key, e)}
      onDragStart={() => handlers.dragStart(c.key)}
      onDragMove={(e) => handlers.dragMove(c.key, e.target as unknown as Konva.Group)}
      onDragEnd={handlers.dragEnd}
    >
      {halo}
      {/* the hit area (and, for box prints, the box's tint) */}
      <Rect width={f.width} height={f.height} fill={inked ? "rgba(0,0,0,0)" : "rgba(148,163,184,0.12)"} perfectDrawEnabled={false} />
      {lb && <Rect name="label" x={lb.x} y={lb.y} width={lb.width} height={lb.height} fill="#fff" stroke="rgba(15,23,42,0.55)" strokeWidth={1} strokeScaleEnabled={false} dash={[3, 2]} listening={false} perfectDrawEnabled={false} />}
      {art}
      {bad && !inked && <Rect width={f.width} height={f.height} fill="rgba(220,38,38,0.28)" listening={false} perfectDrawEnabled={false} />}
      {/* the box: always for box prints; for shape prints only while selected or at fault (the halo is the outline) */}
      {(!inked || bad || selected) && (
        <Rect
          name="outline"
          width={f.width}
          height={f.height}
          stroke={bad ? RED : selected ? BLUE : "rgba(71,85,105,0.5)"}
          strokeWidth={bad || selected ? 2 : 1}
          dash={inked && !selected ? [4, 3] : undefined}
          strokeScaleEnabled={false}
          listening={false}
          perfectDrawEnabled={false}
        />
      )}
      {badgeScale > 0 && (
        <Group x={f.width} y={0} listening={false}>
          <Rect x={-14 / badgeScale} y={0} width={14 / badgeScale} height={14 / badgeScale} fill="#f59e0b" cornerRadius={3 / badgeScale} />
          <Text x={-11 / badgeScale} y={2 / badgeScale} text="P" fontSize={11 / badgeScale} fontStyle="bold" fill="#fff" />
        </Group>
      )}
    </Group>
  );
});
