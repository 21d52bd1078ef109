import { Get, Query } from '@nestjs/common';
import { AdminController } from '../common/auth/controllers.js';
import type { ExpandTreeDto } from './dto/expand-tree.dto.js';
import { ExpandQuery } from './dto/expand.query.js';
import { toExpandTreeResponse } from './tuples.mapper.js';
import { TuplesService } from './tuples.service.js';

@AdminController('expand')
export class ExpandController {
  constructor(private readonly tuples: TuplesService) {}

  /** The tree of the set's members, or `null` when it has none (as Keto v0.6 answers). */
  @Get()
  async expand(@Query() query: ExpandQuery): Promise<ExpandTreeDto | null> {
    const tree = await this.tuples.expand(query, query['max-depth']);
    return tree === null ? null : toExpandTreeResponse(tree);
  }
}
