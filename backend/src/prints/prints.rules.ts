import { ConflictException } from '@nestjs/common';
import { ImageStatus } from '../images/entities/image.entity';
import { fitProblem } from './design-fit';
import { PrintStatus } from './entities/print.entity';

/**
 * Status rules (see docs/prints.md, plus our Error state). A print whose job failed for good
 * was refunded, so it behaves like a draft: it can be fixed, re-processed and deleted.
 */
export const PROCESSABLE = [PrintStatus.InDraft, PrintStatus.Deleted, PrintStatus.Error];
export const EDITABLE = [PrintStatus.InDraft, PrintStatus.Deleted, PrintStatus.Error];
export const DELETABLE = [PrintStatus.Completed, PrintStatus.InDraft, PrintStatus.Deleted, PrintStatus.Error];

export function assertStatus(status: PrintStatus, allowed: PrintStatus[], message: string) {
  if (!allowed.includes(status)) throw new ConflictException({ message, code: 'invalid_status' });
}

export const MSG = {
  notFound: 'Print not found',
  nothingToDuplicate: 'Nothing to duplicate: every design or size of this print has been deleted',
  itemNotFound: 'Print item not found',
  imageMissing: 'Image is missing. Please add the missing item.',
  sizeMissing: 'Size is missing. Please add the missing item.',
  noItems: 'Add at least one item before processing.',
  notProcessable: (s: string) => `This print is ${s}; only a print that is In Draft or Deleted can be processed.`,
  notEditable: 'Items can be changed only while the print is In Draft or Deleted.',
  notDeletable: 'A print can be deleted only when it is Completed, In Draft or Deleted.',
  notCancellable: (s: string) => `This print is ${s}; only a print that is Processing can be cancelled.`,
  alreadyDeleted: 'The files of this print are already deleted.',
  credits: (need: number, have: number) => `Not enough credits: this print needs ${need} credits, you have ${have}.`,
  imageUnreadable: (name: string) => `Image "${name}" could not be read. Please replace it.`,
  imageProcessing: (name: string) => `Image "${name}" is still being processed. Please try again in a moment.`,
};

/** What the readiness rule needs of an item's image (the Image entity has it). */
export interface ItemImage {
  name: string;
  status: ImageStatus;
  trim: { width: number; height: number } | null;
  width: number | null;
  height: number | null;
}

export type ItemProblemCode = 'image_missing' | 'size_missing' | 'image_not_ready' | 'too_large';

export interface ItemProblem {
  code: ItemProblemCode;
  message: string;
}

/**
 * The one item-readiness rule: an item can be laid out when its image and size exist, the
 * image is inspected (ready, with its trim and pixel size) and one copy fits the sheet.
 * The preview shows the problem as a warning; processing refuses with it.
 */
export function itemProblem(
  item: { image?: ItemImage | null; size?: { value: number } | null },
  settings: Parameters<typeof fitProblem>[3],
): ItemProblem | null {
  const { image, size } = item;
  if (!image) return { code: 'image_missing', message: MSG.imageMissing };
  if (!size) return { code: 'size_missing', message: MSG.sizeMissing };
  if (image.status !== ImageStatus.Ready || !image.trim || !image.width || !image.height)
    return { code: 'image_not_ready', message: image.status === ImageStatus.Error ? MSG.imageUnreadable(image.name) : MSG.imageProcessing(image.name) };
  const tooLarge = fitProblem(image.name, image.trim, size.value, settings);
  return tooLarge ? { code: 'too_large', message: tooLarge } : null;
}

/** How a print is named to its owner (bell, e-mail): as the print detail heads it, "Print " and its id's first 8 characters. */
export const printName = (id: string) => `Print ${id.slice(0, 8).toUpperCase()}`;
