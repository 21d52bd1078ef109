import { Body, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AdminController } from '../common/auth/controllers.js';
import { AcpDecisionsService } from './acp-decisions.service.js';
import type { AllowedResponseDto } from './dto/allowed-response.dto.js';
import type { Flavor } from './engine/policy-definition.js';
import { FlavorPipe } from './flavor.pipe.js';

/**
 * `POST /engines/acp/service/{flavor}/allowed`: 200 `{"allowed":true}` or 403 `{"allowed":false}`
 * (the result mirrored in the status; a denial is not an error body). The body is parsed by the
 * service, not by a DTO: this is the hot path.
 */
@AdminController('engines/acp/service/:flavor/allowed')
export class AcpAllowedController {
  constructor(private readonly decisions: AcpDecisionsService) {}

  @Post()
  @HttpCode(200)
  async allowed(
    @Param('flavor', FlavorPipe) flavor: Flavor,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AllowedResponseDto> {
    const allowed = await this.decisions.allowed(flavor, body);
    if (!allowed) void reply.status(403);
    return { allowed };
  }
}
