import { Injectable, type PipeTransform } from '@nestjs/common';
import type { TupleFields } from '../domain/tuple-syntax.js';
import { readCheckBody } from './check-input.js';

/** POST /check's body (see check-input.ts for why not a class-validator DTO). */
@Injectable()
export class CheckBodyPipe implements PipeTransform<unknown, TupleFields> {
  transform(body: unknown): TupleFields {
    return readCheckBody(body);
  }
}
