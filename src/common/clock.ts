import { Injectable } from '@nestjs/common';

/** The time, injectable so tests can fix it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
