// What the editor's canvas draws each design from: its art and its halo as bitmaps made once per
// zoom step (a copy's node then only places them), and the carried copies' shared bitmap.
import { useEffect, useMemo, useState } from "react";
import type Konva from "konva";
import type { DesignImage } from "../../../api/types";
import type { EditorSettings } from "./editorModel";
import type { ShapeChecker } from "./shapeCheck";

export const RED = "#dc2626";
export const BLUE = "#2563eb";
/** Longest side of a design's bitmaps, device pixels (sharp enough at any zoom the editor offers for one copy). */
const SPRITE_MAX_SIDE = 1024;

/** The designs' preview images, loaded once per image. */
export function useImageElements(images: Map<string, DesignImage>) {
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

/** What a copy of a design is drawn from: its art and halos, upright, and where they go in inches. */
export interface Sprite {
  art?: HTMLCanvasElement;
  /** The footprint grown by half the gap: faint, and red for a copy with a problem. */
  halo?: HTMLCanvasElement;
  haloRed?: HTMLCanvasElement;
  /** Upright footprint (art and label) in inches, the art's place in it, and the halo's margin. */
  fw: number;
  fh: number;
  art0: { x: number; y: number; w: number; h: number };
  pad: number;
  /** The outline follows the ink (a "shape" print with the design's mask). */
  inked: boolean;
}

/** Every design's sprite at `res` device pixels per inch. */
export function makeSprites(
  images: Map<string, DesignImage>,
  elements: Map<string, HTMLImageElement>,
  checker: ShapeChecker | null,
  itemImage: Map<string, string>,
  s: EditorSettings,
  res: number,
): Map<string, Sprite> {
  const out = new Map<string, Sprite>();
  if (typeof document === "undefined") return out;
  const canvas = (w: number, h: number) => {
    const k = Math.min(1, SPRITE_MAX_SIDE / Math.max(w, h));
    const c = document.createElement("canvas");
    c.width = Math.max(1, Math.ceil(w * k));
    c.height = Math.max(1, Math.ceil(h * k));
    return c;
  };
  for (const [itemId, imageId] of itemImage) {
    const d = checker?.design(itemId);
    const img = images.get(imageId);
    const el = elements.get(imageId);
    if (!d || !img) continue;
    const dpi = checker!.shapes.dpi;
    const pad = s.gap / 2;
    const sprite: Sprite = { fw: d.w / dpi, fh: d.h / dpi, art0: { x: d.art.x / dpi, y: d.art.y / dpi, w: d.art.w / dpi, h: d.art.h / dpi }, pad, inked: checker!.shape && !!d.mask };
    if (el && img.width) {
      const a = canvas(sprite.art0.w * res, sprite.art0.h * res);
      const k = el.naturalWidth / img.width;
      const t = img.trim ?? { left: 0, top: 0, width: img.width, height: img.height ?? img.width };
      a.getContext("2d")?.drawImage(el, t.left * k, t.top * k, t.width * k, t.height * k, 0, 0, a.width, a.height);
      sprite.art = a;
    }
    if (pad > 0 || sprite.inked) {
      const rects = checker!.rectsOf(itemId);
      const paint = (color: string) => {
        const c = canvas((sprite.fw + 2 * pad) * res, (sprite.fh + 2 * pad) * res);
        const ctx = c.getContext("2d");
        if (!ctx) return c;
        const k = c.width / (sprite.fw + 2 * pad);
        const path = new Path2D();
        for (const [x0, y0, x1, y1] of rects) path.rect((x0 / dpi + pad) * k, (y0 / dpi + pad) * k, ((x1 - x0) / dpi) * k, ((y1 - y0) / dpi) * k);
        ctx.fillStyle = color;
        ctx.strokeStyle = color;
        ctx.fill(path);
        if (pad > 0) {
          // grown by half the gap on every side: two halos touch where the copies are a gap apart
          ctx.lineWidth = 2 * pad * k;
          ctx.lineJoin = checker!.shape ? "round" : "miter";
          ctx.stroke(path);
        }
        return c;
      };
      sprite.halo = paint("rgb(99,102,241)");
      sprite.haloRed = paint(RED);
    }
    out.set(itemId, sprite);
  }
  return out;
}

/** Most pixels the carried copies' bitmap may have; a larger selection (zoomed far in) is drawn node by node. */
const CARRIER_MAX_PIXELS = 8_000_000;

/** The carried copies as one bitmap at the stage's scale (made again when one of them turns red or back). */
export function cacheCarrier(g: Konva.Group, scale: number) {
  g.clearCache();
  const r = g.getClientRect({ relativeTo: g });
  const ratio = typeof window === "undefined" ? 1 : window.devicePixelRatio || 1;
  if (r.width * r.height * scale * scale * ratio * ratio <= CARRIER_MAX_PIXELS) g.cache({ pixelRatio: ratio });
}
