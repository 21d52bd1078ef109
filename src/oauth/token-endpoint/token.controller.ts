import { HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import type { TokenResponse } from '../tokens/token-response.js';
import { formParameters } from './form-parameters.js';
import { TokenEndpointService } from './token-endpoint.service.js';

/**
 * `POST /oauth2/token` on the public listener. The form is checked by `formParameters` (no DTO and no
 * validation pipe: this is the busiest endpoint, and RFC 6749 defines its own error for bad input).
 */
@PublicController('oauth2')
export class TokenController {
  constructor(private readonly tokens: TokenEndpointService) {}

  @Post('token')
  @HttpCode(200)
  async token(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<TokenResponse> {
    // RFC 6749 §5.1: set first, so that error responses carry them too.
    void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return this.tokens.exchange(request.headers.authorization, formParameters(request.body, request.headers['content-type']));
  }
}
