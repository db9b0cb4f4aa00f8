import { Injectable } from '@nestjs/common';

/** The time production batching decides by (cut-offs, waits); tests move it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
