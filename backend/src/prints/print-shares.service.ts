import { ConflictException, GoneException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { PrintFileFormat } from '../sheet-settings/entities/sheet-settings.entity';
import { Role, User } from '../users/entities/user.entity';
import { PrintSheetFile, PrintStatus, sheetFormatFiles } from './entities/print.entity';
import { PrintFilesService } from './print-files.service';
import { MSG } from './prints.rules';

export const SHARE_MSG = {
  invalid: 'This share link is not valid. Ask the person who sent it for a new link.',
  revoked: 'This share link was revoked by its owner. Ask them for a new link.',
  expired: 'This share link has expired. Ask the person who sent it for a new link.',
  filesGone: 'The files of this print have been deleted, so this share link no longer works.',
  notShareable: 'Only the files of a completed print can be shared.',
  revokedAll: 'Share links revoked. Links you already sent no longer work.',
};

/** What a share token says: which print, which processing of it, which share version, until when. */
interface ShareClaims {
  printId: string;
  attempt: number;
  version: number;
  /** Unix seconds. */
  expires: number;
}

interface SharedPrintRow {
  id: string;
  user_id: string;
  status: PrintStatus;
  attempt: number;
  share_version: number;
  files: PrintSheetFile[];
  files_deleted_at: Date | null;
  printed_at: Date | null;
}

const PAYLOAD_BYTES = 28; // print id 16, attempt 4, version 4, expiry 4
const SIGNATURE_BYTES = 16;

/**
 * Share links: a print's sheet files for someone without an account. A link is a signed
 * token, nothing is stored: it names the print, the processing attempt whose files it
 * opens, the print's share version and an expiry that is never later than the files'
 * retention end. Revoking bumps the share version (every earlier link stops working);
 * deleting or re-processing the files ends the links too, since the attempt no longer
 * matches or the files are gone.
 */
@Injectable()
export class PrintSharesService {
  private readonly key: Buffer;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly files: PrintFilesService,
  ) {
    // A key of its own, derived from the server secret, so a share signature can never
    // stand in for any other signature the server makes.
    this.key = createHmac('sha256', config.auth.jwtSecret).update('gangsheet print share links').digest();
  }

  /** Links to every sheet file of a Completed print, for its owner or an admin. */
  async create(user: User, printId: string) {
    const print = await this.owned(user, printId);
    if (print.status !== PrintStatus.Completed || !print.printed_at) throw new ConflictException({ message: SHARE_MSG.notShareable, code: 'invalid_status' });
    const retentionEnd = this.retentionEnd(print.printed_at);
    if (print.files_deleted_at || !print.files.length || retentionEnd.getTime() <= Date.now()) throw new GoneException(SHARE_MSG.filesGone);
    const expires = Math.floor(retentionEnd.getTime() / 1000);
    const token = this.sign({ printId: print.id, attempt: print.attempt, version: print.share_version, expires });
    const base = `/api/shared/${token}/files`;
    const sheets = [...print.files].sort((a, b) => a.n - b.n);
    const formats = (['png', 'pdf'] as const).flatMap((format) =>
      sheets.flatMap((f) => {
        const file = sheetFormatFiles(f).find((x) => x.format === format);
        return file ? [{ format, sheet: f.n, bytes: file.bytes, path: format === 'png' ? `${base}/${f.n}` : `${base}/${f.n}/pdf` }] : [];
      }),
    );
    return { expiresAt: new Date(expires * 1000), files: formats };
  }

  /** Ends every link of the print made so far; links made afterwards work again. */
  async revoke(user: User, printId: string): Promise<void> {
    const print = await this.owned(user, printId);
    await this.db.query(`UPDATE prints SET share_version = share_version + 1 WHERE id = $1`, [print.id]);
  }

  /** The file a share link opens, for anyone holding it; a clear 404/410 once it does not work. */
  async sharedFile(token: string, n: number, format: PrintFileFormat) {
    const claims = this.verify(token);
    if (!claims) throw new NotFoundException(SHARE_MSG.invalid);
    const [print] = await this.db.query<SharedPrintRow[]>(`SELECT ${COLUMNS} FROM prints WHERE id = $1`, [claims.printId]);
    if (!print) throw new GoneException(SHARE_MSG.filesGone);
    if (print.share_version !== claims.version) throw new GoneException(SHARE_MSG.revoked);
    if (claims.expires * 1000 <= Date.now()) throw new GoneException(SHARE_MSG.expired);
    // Files of another processing, deleted files, or past retention but not swept yet.
    const current = print.status === PrintStatus.Completed && print.attempt === claims.attempt && !print.files_deleted_at;
    if (!current || !print.printed_at || this.retentionEnd(print.printed_at).getTime() <= Date.now()) throw new GoneException(SHARE_MSG.filesGone);
    return this.files.openSheetFile(
      { _id: print.id, files: print.files, filesDeletedAt: print.files_deleted_at, printedAt: print.printed_at },
      n,
      format,
      new Date(claims.expires * 1000),
    );
  }

  private async owned(user: User, printId: string): Promise<SharedPrintRow> {
    const [print] = await this.db.query<SharedPrintRow[]>(`SELECT ${COLUMNS} FROM prints WHERE id = $1`, [printId]);
    if (!print || (user.role !== Role.Admin && print.user_id !== user._id)) throw new NotFoundException(MSG.notFound);
    return print;
  }

  private retentionEnd(printedAt: Date): Date {
    return new Date(new Date(printedAt).getTime() + this.config.prints.retentionDays * 86_400_000);
  }

  private sign(c: ShareClaims): string {
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    Buffer.from(c.printId.replace(/-/g, ''), 'hex').copy(payload, 0);
    payload.writeUInt32BE(c.attempt, 16);
    payload.writeUInt32BE(c.version, 20);
    payload.writeUInt32BE(c.expires, 24);
    return Buffer.concat([payload, this.signature(payload)]).toString('base64url');
  }

  private verify(token: string): ShareClaims | null {
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(token)) return null;
    const raw = Buffer.from(token, 'base64url');
    if (raw.length !== PAYLOAD_BYTES + SIGNATURE_BYTES) return null;
    const payload = raw.subarray(0, PAYLOAD_BYTES);
    if (!timingSafeEqual(raw.subarray(PAYLOAD_BYTES), this.signature(payload))) return null;
    const hex = payload.subarray(0, 16).toString('hex');
    return {
      printId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
      attempt: payload.readUInt32BE(16),
      version: payload.readUInt32BE(20),
      expires: payload.readUInt32BE(24),
    };
  }

  private signature(payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, SIGNATURE_BYTES);
  }
}

const COLUMNS = 'id, user_id, status, attempt, share_version, files, files_deleted_at, printed_at';
