import { Body, HttpCode, Post } from '@nestjs/common';
import { AdminController } from '../../common/auth/controllers.js';
import { FlushRequestDto } from './dto/flush-request.dto.js';
import { TokenJanitor } from './token-janitor.js';

/** `POST /oauth2/flush` on the admin listener: run the janitor now. */
@AdminController('oauth2')
export class FlushAdminController {
  constructor(private readonly janitor: TokenJanitor) {}

  @Post('flush')
  @HttpCode(204)
  async flush(@Body() body: FlushRequestDto): Promise<void> {
    await this.janitor.flush(body.notAfter === undefined ? undefined : new Date(body.notAfter));
  }
}
