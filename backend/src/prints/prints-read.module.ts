import { Module } from '@nestjs/common';
import { PrintsReadService } from './prints-read.service';

/**
 * The prints read model on its own, for features that prints depends on (images, sizes) and
 * for the global bell: importing PrintsModule there would make a module cycle.
 */
@Module({ providers: [PrintsReadService], exports: [PrintsReadService] })
export class PrintsReadModule {}
