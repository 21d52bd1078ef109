import { Injectable, type PipeTransform } from '@nestjs/common';
import { readCheckQuery, type CheckInput } from './check-input.js';

/** GET /check's query string (see check-input.ts for why not a class-validator DTO). */
@Injectable()
export class CheckQueryPipe implements PipeTransform<unknown, CheckInput> {
  transform(query: unknown): CheckInput {
    return readCheckQuery(query);
  }
}
