import { Body, HttpCode, Post } from '@nestjs/common';
import { AdminController } from '../common/auth/controllers.js';
import { CreateRecoveryLinkDto } from './dto/create-recovery-link.dto.js';
import type { RecoveryLinkResponseDto } from './dto/recovery-link-response.dto.js';
import { RecoveryLinksService } from './recovery-links.service.js';

/** `POST /recovery/link` (also `/admin/recovery/link`): a link an operator hands to a user. */
@AdminController('recovery')
export class RecoveryLinksAdminController {
  constructor(private readonly links: RecoveryLinksService) {}

  @Post('link')
  @HttpCode(200)
  async create(@Body() body: CreateRecoveryLinkDto): Promise<RecoveryLinkResponseDto> {
    const { link, expiresAt } = await this.links.create(body);
    return { recovery_link: link, expires_at: expiresAt.toISOString() };
  }
}
