import { ConflictException, GoneException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { Readable } from 'node:stream';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { ObjectNotFoundError } from '../storage/object-store';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returned } from '../common/sql';
import { RealtimeService } from '../realtime/realtime.service';
import { StorageService } from '../storage/storage.service';
import { Role, User } from '../users/entities/user.entity';
import { PrintFileFormat } from '../sheet-settings/entities/sheet-settings.entity';
import { Print, PrintStatus, sheetFormatFiles } from './entities/print.entity';
import { printFolder } from './print-lifecycle';
import { assertStatus, DELETABLE, MSG } from './prints.rules';
import { PrintsService } from './prints.service';

/** A print's sheet files: downloads, deleting the files (status Deleted) and deleting the print. */
@Injectable()
export class PrintFilesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly storage: StorageService,
    private readonly prints: PrintsService,
    private readonly realtime: RealtimeService,
  ) {}

  /** Removes the sheet files only; the print becomes Deleted and can be processed again. */
  async deleteFiles(userId: string, printId: string): Promise<Print> {
    const print = await this.prints.find(userId, printId);
    if (print.status === PrintStatus.Deleted) throw new ConflictException({ message: MSG.alreadyDeleted, code: 'invalid_status' });
    assertStatus(print.status, DELETABLE, MSG.notDeletable);
    const allowed = DELETABLE.filter((s) => s !== PrintStatus.Deleted);
    const rows = returned(
      await this.db.query(
        `UPDATE prints SET status = 'Deleted', files = '[]', files_deleted_at = CASE WHEN jsonb_array_length(files) > 0 THEN now() ELSE files_deleted_at END,
           updated_at = now() WHERE id = $1 AND user_id = $2 AND status = ANY($3) RETURNING id`,
        [printId, userId, allowed],
      ),
    );
    if (!rows.length) throw new ConflictException({ message: MSG.notDeletable, code: 'invalid_status' });
    await this.storage.deleteFolder(printFolder(userId, printId));
    this.realtime.emit(userId, 'print', { printId, status: 'Deleted' });
    return this.prints.find(userId, printId);
  }

  /** Removes the print, its items and its files. */
  async forceDelete(userId: string, printId: string): Promise<void> {
    const print = await this.prints.find(userId, printId);
    assertStatus(print.status, DELETABLE, MSG.notDeletable);
    const rows = returned(await this.db.query(`DELETE FROM prints WHERE id = $1 AND user_id = $2 AND status = ANY($3) RETURNING id`, [printId, userId, DELETABLE]));
    if (!rows.length) throw new ConflictException({ message: MSG.notDeletable, code: 'invalid_status' });
    await this.storage.deleteFolder(printFolder(userId, printId));
    this.realtime.emit(userId, 'print', { printId, status: 'Removed' });
  }

  // ---- files ----

  /** A sheet file of a print, for its owner or an admin; 404 for anyone else. */
  async sheetFile(user: User, printId: string, n: number, kind: PrintFileFormat | 'preview') {
    const where = user.role === Role.Admin ? { _id: printId } : { _id: printId, userId: user._id };
    const print = await this.db.getRepository(Print).findOne({ where });
    if (!print) throw new NotFoundException(MSG.notFound);
    return this.openSheetFile(print, n, kind);
  }

  /**
   * A stored sheet file of a print; the caller has decided who may read it (owner, admin,
   * share link). On a bucket the answer is a signed URL, valid STORAGE_SIGNED_URL_SECONDS at
   * most and never past the file's retention nor `notAfter` (a share link's end); on the
   * local folder, the file's stream.
   */
  async openSheetFile(print: Pick<Print, '_id' | 'files' | 'filesDeletedAt' | 'printedAt'>, n: number, kind: PrintFileFormat | 'preview', notAfter?: Date): Promise<SheetFile> {
    const printId = print._id;
    const file = print.files.find((f) => f.n === n);
    if (!file) {
      if (print.filesDeletedAt) throw new GoneException('The files of this print have been deleted.');
      throw new NotFoundException('File not found');
    }
    // A format the print was not rendered in (PDF of a PNG-only print) is simply not there.
    const key = kind === 'preview' ? file.previewKey : sheetFormatFiles(file).find((x) => x.format === kind)?.key;
    if (!key) throw new NotFoundException('File not found');
    const type = SHEET_FILE_TYPES[kind];
    const name = `print-${printId.slice(0, 8)}-sheet-${n}.${kind === 'preview' ? 'webp' : kind}`;
    const gone = () => new GoneException('The files of this print have been deleted.');
    if (this.storage.driver !== 'local') {
      if (!(await this.storage.exists(key))) throw gone();
      const ends = [Date.now() + this.config.storage.signedUrlSeconds * 1000];
      if (print.printedAt) ends.push(new Date(print.printedAt).getTime() + this.config.prints.retentionDays * 86_400_000);
      if (notAfter) ends.push(notAfter.getTime());
      const seconds = Math.floor((Math.min(...ends) - Date.now()) / 1000);
      if (seconds < 1) throw gone();
      const url = await this.storage.signedUrl(key, { expiresInSeconds: seconds, fileName: name, contentType: type });
      if (url) return { url, type, name };
    }
    try {
      const { body, size } = await this.storage.open(key);
      return { stream: body, bytes: size, type, name };
    } catch (e) {
      if (e instanceof ObjectNotFoundError) throw gone();
      throw e;
    }
  }
}

/** A sheet file to send: a signed URL to redirect to, or a stream with its size. */
export type SheetFile = { type: string; name: string } & ({ url: string; stream?: undefined; bytes?: undefined } | { url?: undefined; stream: Readable; bytes: number });

const SHEET_FILE_TYPES = { png: 'image/png', pdf: 'application/pdf', preview: 'image/webp' } as const;
