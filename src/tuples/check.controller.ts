import { Body, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AdminController } from '../common/auth/controllers.js';
import type { TupleFields } from './domain/tuple-syntax.js';
import type { CheckInput } from './dto/check-input.js';
import { CheckBodyPipe } from './dto/check-body.pipe.js';
import { CheckQueryPipe } from './dto/check-query.pipe.js';
import type { CheckResponseDto } from './dto/check-response.dto.js';
import { MaxDepthQueryPipe } from './dto/max-depth-query.pipe.js';
import { TuplesService } from './tuples.service.js';

/** Keto v0.6's `/check`, also under the later `/relation-tuples/check`: 200 allowed, 403 not. */
const PATHS = ['check', 'relation-tuples/check'];

@AdminController()
export class CheckController {
  constructor(private readonly tuples: TuplesService) {}

  @Get(PATHS)
  async checkQuery(@Query(CheckQueryPipe) input: CheckInput, @Res({ passthrough: true }) reply: FastifyReply): Promise<CheckResponseDto> {
    return answer(reply, await this.tuples.check(input.tuple, input.maxDepth));
  }

  @Post(PATHS)
  @HttpCode(200)
  async checkBody(
    @Body(CheckBodyPipe) tuple: TupleFields,
    @Query(MaxDepthQueryPipe) maxDepth: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CheckResponseDto> {
    return answer(reply, await this.tuples.check(tuple, maxDepth));
  }
}

/** The status mirrors the answer; a denial is not an error, so the body stays `getCheckResponse`. */
function answer(reply: FastifyReply, allowed: boolean): CheckResponseDto {
  if (!allowed) void reply.status(403);
  return { allowed };
}
