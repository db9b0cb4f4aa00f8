import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SheetPreset, UserSheetSettings } from './entities/sheet-settings.entity';
import { SheetSettingsController } from './sheet-settings.controller';
import { SheetSettingsService } from './sheet-settings.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserSheetSettings, SheetPreset])],
  controllers: [SheetSettingsController],
  providers: [SheetSettingsService],
  exports: [SheetSettingsService],
})
export class SheetSettingsModule {}
