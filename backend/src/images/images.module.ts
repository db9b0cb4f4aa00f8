import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { join } from 'node:path';
import { PrintsReadModule } from '../prints/prints-read.module';
import { MULTIPART_OPTIONS, MultipartOptions } from '../common/multipart';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { ImageCategory } from './entities/image-category.entity';
import { Image } from './entities/image.entity';
import { ImageCategoriesController } from './image-categories.controller';
import { ImageCategoriesService } from './image-categories.service';
import { ImageInspectorService } from './image-inspector.service';
import { ImagesController } from './images.controller';
import { ImagesService } from './images.service';
import { SpoolStorage } from './upload-storage';

@Module({
  imports: [
    TypeOrmModule.forFeature([Image, ImageCategory]),
    PrintsReadModule,
  ],
  controllers: [ImagesController, ImageCategoriesController],
  providers: [
    ImagesService,
    ImageCategoriesService,
    ImageInspectorService,
    // multer's options for the upload route (AnyFilesUpload() in ImagesController).
    {
      provide: MULTIPART_OPTIONS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): MultipartOptions => ({
        storage: new SpoolStorage(join(config.dataDir, 'tmp', 'uploads'), config.uploads.maxFileBytes),
        limits: { files: config.uploads.maxFiles, fields: 20, fieldSize: 64 * 1024, parts: config.uploads.maxFiles + 20 },
        // Browsers send a file name's UTF-8 bytes as they are (filename="é.png"); busboy's
        // default, latin1, stored them garbled ("Ã©.png").
        defParamCharset: 'utf8',
      }),
    },
  ],
  exports: [ImagesService],
})
export class ImagesModule {}
