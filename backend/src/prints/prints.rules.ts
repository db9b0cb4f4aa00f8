import { ConflictException } from '@nestjs/common';
import { PrintStatus } from './entities/print.entity';

/**
 * Status rules (spec §4, plus our Error state). A print whose job failed for good was
 * refunded, so it behaves like a draft: it can be fixed, re-processed and deleted.
 */
export const PROCESSABLE = [PrintStatus.InDraft, PrintStatus.Deleted, PrintStatus.Error];
export const EDITABLE = [PrintStatus.InDraft, PrintStatus.Deleted, PrintStatus.Error];
export const DELETABLE = [PrintStatus.Completed, PrintStatus.InDraft, PrintStatus.Deleted, PrintStatus.Error];

export function assertStatus(status: PrintStatus, allowed: PrintStatus[], message: string) {
  if (!allowed.includes(status)) throw new ConflictException({ message, code: 'invalid_status' });
}

export const MSG = {
  notFound: 'Print not found',
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
};
