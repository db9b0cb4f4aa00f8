import { isoTimestampSql } from '../common/sql';
import { ImageDto, toImageDto } from './dto/image.dto';
import { ImageCategory } from './entities/image-category.entity';
import { Image, ImageStatus } from './entities/image.entity';

// The library list reads plain rows and maps them here: TypeORM's entity hydration of the
// joined page cost more CPU than the query itself. Only the columns the list shows are read.

/** What a list row holds: the image's shown columns and its category's id and name. */
export const LIST_SELECT = [
  'i.id', 'i.name', 'i.original_name', 'i.preview_key', 'i.score', 'i.used_in_print', 'i.mime', 'i.bytes', 'i.width', 'i.height',
  'i.trim', 'i.status', 'i.error', `${isoTimestampSql('i.deleted_at')} AS deleted_at`, `${isoTimestampSql('i.created_at')} AS created_at`,
  `${isoTimestampSql('i.updated_at')} AS updated_at`, 'c.id AS c_id', 'c.name AS c_name',
].join(', ');
/** A timestamp as its JSON text (see isoTimestampSql): the list only passes it on. */
type IsoTimestamp = string;
export interface ImageListRow {
  id: string;
  name: string;
  original_name: string;
  preview_key: string | null;
  score: string | null;
  used_in_print: number;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  trim: Image['trim'];
  status: ImageStatus;
  error: string | null;
  deleted_at: IsoTimestamp | null;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
  c_id: string | null;
  c_name: string | null;
}

export const imageDtoFromRow = (r: ImageListRow): ImageDto =>
  toImageDto(
    {
      _id: r.id,
      name: r.name,
      originalName: r.original_name,
      previewKey: r.preview_key,
      score: r.score === null ? 0 : Number(r.score),
      usedInPrint: r.used_in_print,
      mime: r.mime,
      bytes: r.bytes,
      width: r.width,
      height: r.height,
      trim: r.trim,
      status: r.status,
      error: r.error,
      // The DTO's timestamps are answered as JSON, where a Date and its ISO text are the same.
      deletedAt: r.deleted_at as unknown as Date | null,
      createdAt: r.created_at as unknown as Date,
      updatedAt: r.updated_at as unknown as Date,
    } as Image,
    r.c_id ? ({ _id: r.c_id, name: r.c_name } as ImageCategory) : null,
  );
