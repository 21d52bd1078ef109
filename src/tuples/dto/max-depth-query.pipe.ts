import { Injectable, type PipeTransform } from '@nestjs/common';
import { readMaxDepthQuery } from './check-input.js';

/** POST /check's query string: only `max-depth` (see check-input.ts). */
@Injectable()
export class MaxDepthQueryPipe implements PipeTransform<unknown, number | undefined> {
  transform(query: unknown): number | undefined {
    return readMaxDepthQuery(query);
  }
}
