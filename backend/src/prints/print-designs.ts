import { EntityManager, In } from 'typeorm';
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
