import { Image } from '../images/entities/image.entity';
import { Size } from '../sizes/entities/size.entity';
import { PrintDto, PrintFileDto, PrintImageDto, PrintItemDto, PrintSizeDto } from './dto/print.dto';
import { PrintItem } from './entities/print-item.entity';
import { PRINT_FILE_FORMATS, PrintFileFormat } from '../sheet-settings/entities/sheet-settings.entity';
import { Print, PrintSheetFile, PrintStatus, sheetFormatFiles } from './entities/print.entity';

/** URLs the UI uses; the files are served by their own feature's controller. */
export const imageFileUrl = (id: string) => `/api/images/${id}/file`;
export const imagePreviewUrl = (id: string) => `/api/images/${id}/preview`;
/** Sheet n as PNG at `/files/n` (as before PDF output), as PDF at `/files/n/pdf`. */
export const sheetFileUrl = (printId: string, n: number, format: PrintFileFormat = 'png') => `/api/print/${printId}/files/${n}${format === 'png' ? '' : `/${format}`}`;
export const sheetPreviewUrl = (printId: string, n: number) => `/api/print/${printId}/files/${n}/preview`;

export function toImageDto(i: Image): PrintImageDto {
  return {
    _id: i._id,
    name: i.name,
    file: { path: imageFileUrl(i._id), name: i.originalName },
    previewFile: i.previewKey ? { path: imagePreviewUrl(i._id) } : null,
    width: i.width,
    height: i.height,
    trim: i.trim,
    status: i.status,
    deleted: !!i.deletedAt,
  };
}

export const toSizeDto = (s: Size): PrintSizeDto => ({ _id: s._id, name: s.name, value: s.value });

export function toItemDto(i: PrintItem): PrintItemDto {
  return {
    _id: i._id,
    imageId: i.imageId,
    image: i.image ? toImageDto(i.image) : null,
    sizeId: i.sizeId,
    size: i.size ? toSizeDto(i.size) : null,
    quantity: i.quantity,
    orderItemId: i.orderItemId,
    orderLine: i.orderLine ?? null,
  };
}

/** One entry per file, grouped by format (every PNG, then every PDF), sheets in order within a format. */
export function toFileDtos(printId: string, files: PrintSheetFile[]): PrintFileDto[] {
  return PRINT_FILE_FORMATS.flatMap((format) =>
    files.flatMap((f) =>
      sheetFormatFiles(f)
        .filter((x) => x.format === format)
        .map((x) => ({
          format,
          sheet: f.n,
          path: sheetFileUrl(printId, f.n, format),
          previewPath: sheetPreviewUrl(printId, f.n),
          widthPx: f.widthPx,
          heightPx: f.heightPx,
          lengthIn: f.lengthIn,
          bytes: x.bytes,
        })),
    ),
  );
}

export function toPrintDto(p: Print, retentionDays: number): PrintDto {
  const items = p.items ?? [];
  const expires =
    p.status === PrintStatus.Completed && p.printedAt ? new Date(p.printedAt.getTime() + retentionDays * 86_400_000) : null;
  return {
    _id: p._id,
    type: p.type,
    status: p.status,
    printedAt: p.printedAt,
    fileId: toFileDtos(p._id, p.files ?? []),
    printItems: items.map(toItemDto),
    // What processing costs now (drafts) or what was charged (processed prints).
    creditCost: p.test ? 0 : p.status === PrintStatus.Processing || p.status === PrintStatus.Completed ? p.creditCost : items.reduce((a, i) => a + i.quantity, 0),
    test: !!p.test,
    error: p.error,
    settings: p.settings,
    filesExpireAt: expires,
    filesDeletedAt: p.filesDeletedAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    externalId: p.externalId ?? null,
    metadata: p.metadata ?? {},
  };
}
