import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Post,
  Put,
  Query,
  Res,
  StreamableFile,
  UploadedFiles,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Idempotent } from '../idempotency/idempotency.decorators';
import { ApiError } from '../common/api-errors';
import { AnyFilesUpload } from '../common/multipart';
import { currentRequestId } from '../common/request-context';
import { CurrentUser } from '../auth/auth.decorators';
import { ObjectNotFoundError } from '../storage/object-store';
import { StorageService } from '../storage/storage.service';
import { User } from '../users/entities/user.entity';
import {
  BulkDeleteImagesDto,
  BulkDeleteResponse,
  BulkUpdateImagesDto,
  ImageListQueryDto,
  ImageListResponse,
  ImageResponse,
  ImagesResponse,
  toImageDto,
  UpdateImageDto,
  UploadImagesDto,
  UploadResponse,
} from './dto/image.dto';
import { ImagesService } from './images.service';
import { discardSpooled, SpooledFile } from './upload-storage';

const uuid = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Image not found') });
const FILE_FIELDS = new Set(['files', 'files[]', 'file']);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

@ApiTags('images')
@ApiCookieAuth()
@Controller('images')
export class ImagesController {
  constructor(
    private readonly images: ImagesService,
    private readonly storage: StorageService,
  ) {}

  @Get()
  @ApiOkResponse({ type: ImageListResponse, description: 'Live images of the signed-in user; default limit 50, default sort createdAt desc (name: asc)' })
  listImages(@CurrentUser() user: User, @Query() q: ImageListQueryDto) {
    return this.images.list(user._id, q);
  }

  @Post('bulk-upload')
  @Idempotent()
  @UseInterceptors(AnyFilesUpload())
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['files'],
      properties: {
        files: { type: 'array', items: { type: 'string', format: 'binary' } },
        imageCategoryId: { type: 'string', format: 'uuid' },
        score: { type: 'number', minimum: 0, maximum: 5, multipleOf: 0.5 },
      },
    },
  })
  @ApiCreatedResponse({
    type: UploadResponse,
    description: 'At least one file stored; `errors` names the refused files. 400 with the same body when none was stored.',
  })
  async uploadImages(
    @CurrentUser() user: User,
    @UploadedFiles() files: SpooledFile[] | undefined,
    @Body() dto: UploadImagesDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const all = files ?? [];
    try {
      const accepted = all.filter((f) => FILE_FIELDS.has(f.fieldname));
      if (!accepted.length) throw new BadRequestException('Select at least one file');
      const result = await this.images.upload(user, accepted, dto);
      if (!result.data.length) {
        res.status(400);
        const message = accepted.length === 1 ? result.errors[0].message : 'None of the files could be uploaded';
        // The error shape, with the refused files as its errors (each still naming its file).
        const errors = result.errors.map((e) => ({ field: 'files', code: 'file_refused', ...e }));
        return { statusCode: 400, code: 'upload_refused', message, requestId: currentRequestId(), data: result.data, errors };
      }
      const message = result.errors.length
        ? `${plural(result.data.length, 'image')} uploaded, ${plural(result.errors.length, 'file')} refused`
        : `${plural(result.data.length, 'image')} uploaded. Previews are being made; you will see them shortly.`;
      return { ...result, message };
    } finally {
      await discardSpooled(all);
    }
  }

  @Put('bulk-update')
  @ApiOkResponse({ type: ImagesResponse })
  async bulkUpdateImages(@CurrentUser() user: User, @Body() dto: BulkUpdateImagesDto) {
    const images = await this.images.bulkUpdate(user._id, dto.images);
    return { data: images.map((i) => toImageDto(i)), message: `${plural(images.length, 'image')} updated` };
  }

  @Post('bulk-delete')
  @ApiCreatedResponse({ type: BulkDeleteResponse, description: '409 when an image is in a print that is not completed' })
  async bulkDeleteImages(@CurrentUser() user: User, @Body() dto: BulkDeleteImagesDto) {
    const data = await this.images.bulkDelete(user._id, dto.ids);
    return { data, message: `${plural(data.deleted.length + data.kept.length, 'image')} deleted` };
  }

  @Get(':id')
  @ApiOkResponse({ type: ImageResponse, description: 'Also answers for an image deleted from the library but kept for completed prints (deletedAt set)' })
  async getImage(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    return { data: toImageDto(await this.images.get(user._id, id)) };
  }

  @Put(':id')
  @ApiOkResponse({ type: ImageResponse })
  async updateImage(@CurrentUser() user: User, @Param('id', uuid) id: string, @Body() dto: UpdateImageDto) {
    return { data: toImageDto(await this.images.update(user._id, id, dto)), message: 'Image updated' };
  }

  @Delete(':id')
  @ApiOkResponse({ type: BulkDeleteResponse })
  @ApiError(409, 'The image is in a print that is not completed: remove it from the print first', '"Tiger head" is used by a print that is not completed. Remove it from the print first.', 'image_in_draft_print')
  async deleteImage(@CurrentUser() user: User, @Param('id', uuid) id: string) {
    const data = await this.images.bulkDelete(user._id, [id]);
    return { data, message: '1 image deleted' };
  }

  @Get(':id/file')
  @ApiProduces('image/png', 'image/jpeg', 'image/svg+xml')
  @ApiQuery({ name: 'download', required: false, description: '1: as an attachment (SVGs always are)' })
  @ApiOkResponse({ description: 'The original file; owner or admin only' })
  async getImageFile(@CurrentUser() user: User, @Param('id', uuid) id: string, @Query('download') download: string | undefined, @Res({ passthrough: true }) res: FastifyReply) {
    const f = await this.images.file(user, id, 'original');
    // An SVG opened directly must never run as a document of our origin.
    return this.send(res, f, f.svg || download === '1' || download === 'true' ? 'attachment' : 'inline');
  }

  @Get(':id/preview')
  @ApiProduces('image/webp')
  @ApiOkResponse({ description: 'WebP thumbnail (long side 512 px); 404 until the preview job has run' })
  async getImagePreview(@CurrentUser() user: User, @Param('id', uuid) id: string, @Res({ passthrough: true }) res: FastifyReply) {
    return this.send(res, await this.images.file(user, id, 'preview'), 'inline');
  }

  private async send(res: FastifyReply, f: { key: string; mime: string; name: string; bytes: number }, disposition: 'inline' | 'attachment') {
    // streamed by the API on every driver: the sandbox policy below must come with the file
    const { body } = await this.storage.open(f.key).catch((e) => {
      throw e instanceof ObjectNotFoundError ? new NotFoundException('File not found') : e;
    });
    res.headers({
      'Content-Type': f.mime,
      'Content-Length': String(f.bytes),
      'Content-Disposition': contentDisposition(disposition, f.name),
      // A file's bytes never change under its URL; only its owner (or an admin) may see it.
      'Cache-Control': 'private, max-age=86400',
      'Content-Security-Policy': "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'",
      'X-Content-Type-Options': 'nosniff',
    });
    return new StreamableFile(body);
  }
}

function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())}`;
}
