import { Body, Delete, Get, HttpCode, Patch, Put, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AdminController } from '../common/auth/controllers.js';
import { DeleteRelationTuplesQuery } from './dto/delete-relation-tuples.query.js';
import { ListRelationTuplesQuery } from './dto/list-relation-tuples.query.js';
import { PatchBodyPipe } from './dto/patch-body.pipe.js';
import type { PatchDeltaDto } from './dto/patch-delta.dto.js';
import type { RelationTupleResponseDto } from './dto/relation-tuple-response.dto.js';
import { RelationTupleDto } from './dto/relation-tuple.dto.js';
import type { RelationTuplesPageDto } from './dto/relation-tuples-page.dto.js';
import { locationOf, toPageResponse, toRelationTupleResponse } from './tuples.mapper.js';
import { TuplesService } from './tuples.service.js';

/** Listing and writing relation tuples (Keto v0.6 read and write APIs), on the admin listener. */
@AdminController('relation-tuples')
export class RelationTuplesController {
  constructor(private readonly tuples: TuplesService) {}

  @Get()
  async list(@Query() query: ListRelationTuplesQuery): Promise<RelationTuplesPageDto> {
    const page = await this.tuples.list({ ...query, pageToken: query.page_token, pageSize: query.page_size });
    return toPageResponse(page);
  }

  @Put()
  @HttpCode(201)
  async write(@Body() body: RelationTupleDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<RelationTupleResponseDto> {
    const tuple = await this.tuples.write(body);
    void reply.header('location', locationOf(tuple));
    return toRelationTupleResponse(tuple);
  }

  @Delete()
  @HttpCode(204)
  async delete(@Query() query: DeleteRelationTuplesQuery): Promise<void> {
    await this.tuples.delete(query);
  }

  @Patch()
  @HttpCode(204)
  async patch(@Body(PatchBodyPipe) deltas: PatchDeltaDto[]): Promise<void> {
    await this.tuples.patch(deltas.map((delta) => ({ action: delta.action, tuple: delta.relation_tuple })));
  }
}
