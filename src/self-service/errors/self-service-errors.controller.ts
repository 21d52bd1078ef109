import { Get, Query } from '@nestjs/common';
import { PublicController } from '../../common/auth/controllers.js';
import { ErrorContainersService, type ErrorContainerResponse } from './error-containers.service.js';

/** `GET /self-service/errors?error=<id>`: what the error UI shows (`stub:500` for UI development). */
@PublicController('self-service/errors')
export class SelfServiceErrorsController {
  constructor(private readonly containers: ErrorContainersService) {}

  @Get()
  get(@Query('error') id: unknown): Promise<ErrorContainerResponse> {
    return this.containers.get(id);
  }
}
