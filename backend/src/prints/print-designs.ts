import { EntityManager, In } from 'typeorm';
import { labelSpace, orderLabelText } from '../gangsheet';
import { Image } from '../images/entities/image.entity';
import { printedSize } from './design-fit';
import { DesignMask, EngineDesign } from './engine.adapter';
import { PrintItem } from './entities/print-item.entity';

/**
 * The designs with their images' ink masks, for "shape" nesting. Masks are not loaded with
 * images (select: false; up to ~44 KB each), only here. An image without one (opaque, or
 * uploaded before masks were measured) is nested as its rectangle.
 */
export async function withMasks(m: EntityManager, designs: EngineDesign[], items: readonly PrintItem[]): Promise<EngineDesign[]> {
  const imageOf = new Map(items.map((i) => [i._id, i.imageId]));
  const ids = [...new Set(designs.map((d) => imageOf.get(d.id)).filter((id): id is string => !!id))];
  if (!ids.length) return designs;
  const rows = await m.find(Image, { where: { _id: In(ids) }, select: { _id: true, mask: true } });
  const masks = new Map<string, DesignMask | null>(rows.map((r) => [r._id, r.mask]));
  return designs.map((d) => ({ ...d, mask: masks.get(imageOf.get(d.id) ?? '') ?? null }));
}

export function engineDesign(it: PrintItem): EngineDesign {
  const img = it.image!;
  return {
    id: it._id,
    file: img.fileKey,
    widthPx: img.width!,
    heightPx: img.height!,
    trim: img.trim!,
    width: printedSize(img.trim!, it.size!.value).width,
    quantity: it.quantity,
    vector: img.mime === 'image/svg+xml',
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The designs with order labels, when `on`: each design from a shop order's item gets the
 * label space for its texts ("#5012 · 1/3" ... "3/3", one per copy) and the texts. Designs
 * not from an order (or whose order is gone) stay without labels.
 */
export async function withLabels(m: EntityManager, designs: EngineDesign[], on: boolean): Promise<EngineDesign[]> {
  const ids = designs.map((d) => d.id).filter((id) => UUID.test(id));
  if (!on || !ids.length) return designs;
  const rows: { id: string; number: string | null }[] = await m.query(
    `SELECT i.id, o.number FROM print_items i JOIN order_items oi ON oi.id = i.order_item_id JOIN orders o ON o.id = oi.order_id WHERE i.id = ANY($1::uuid[])`,
    [ids],
  );
  const numbers = new Map(rows.filter((r) => r.number !== null).map((r) => [r.id, String(r.number)]));
  return designs.map((d) => {
    const n = numbers.get(d.id);
    if (n === undefined) return d;
    const labels = Array.from({ length: d.quantity }, (_, i) => orderLabelText(n, i, d.quantity));
    return { ...d, label: labelSpace(labels), labels };
  });
}
