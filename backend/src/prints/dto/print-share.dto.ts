import { ApiProperty } from '@nestjs/swagger';
import { PRINT_FILE_FORMATS, PrintFileFormat } from '../../sheet-settings/entities/sheet-settings.entity';

export class SharedFileDto {
  @ApiProperty({ enum: PRINT_FILE_FORMATS }) format: PrintFileFormat;
  @ApiProperty({ description: 'Sheet number, 1-based' }) sheet: number;
  @ApiProperty({ description: 'Download URL of the file that works without an account until expiresAt', example: '/api/shared/3q2-…/files/1' }) path: string;
  @ApiProperty() bytes: number;
}

export class ShareLinksDto {
  @ApiProperty({ type: Date, description: "When the links stop working: the end of the files' retention" }) expiresAt: Date;
  @ApiProperty({ type: [SharedFileDto], description: 'One entry per sheet and format (every PNG, then every PDF)' }) files: SharedFileDto[];
}

export class ShareLinksResponse {
  @ApiProperty({ type: ShareLinksDto }) data: ShareLinksDto;
  @ApiProperty() message: string;
}
