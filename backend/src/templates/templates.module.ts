import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PrintsModule } from '../prints/prints.module';
import { SheetSettingsModule } from '../sheet-settings/sheet-settings.module';
import { SizesModule } from '../sizes/sizes.module';
import { SheetTemplate } from './entities/sheet-template.entity';
import { TemplatesController } from './templates.controller';
import { TemplatesService } from './templates.service';

@Module({
  imports: [TypeOrmModule.forFeature([SheetTemplate]), PrintsModule, SheetSettingsModule, SizesModule],
  controllers: [TemplatesController],
  providers: [TemplatesService],
  exports: [TemplatesService],
})
export class TemplatesModule {}
