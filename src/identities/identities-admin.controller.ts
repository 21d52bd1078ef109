import { Body, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminController } from '../common/auth/controllers.js';
import { numberedPageLinkHeader, type NumberedPage } from '../common/pagination/numbered-page.js';
import { NumberedPageQuery } from '../common/pagination/numbered-page-query.decorator.js';
import type { UrlsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { CreateIdentityDto } from './dto/create-identity.dto.js';
import type { IdentityResponseDto } from './dto/identity-response.dto.js';
import { UpdateIdentityDto } from './dto/update-identity.dto.js';
import { toIdentityResponse } from './identities.mapper.js';
import { IdentitiesService } from './identities.service.js';
import { parseIncludeCredential } from './identity-list-filter.js';
import type { IdentityRecord } from './identity-record.js';

/** Identity administration (`/identities`, also `/admin/identities`), Kratos v0.6's admin API. */
@AdminController('identities')
export class IdentitiesAdminController {
  private readonly issuer: string;

  constructor(
    private readonly identities: IdentitiesService,
    @InjectConfig('urls') urls: UrlsConfig,
  ) {
    this.issuer = urls.issuer;
  }

  @Post()
  @HttpCode(201)
  async create(@Body() body: CreateIdentityDto): Promise<IdentityResponseDto> {
    return toIdentityResponse(await this.identities.create(body), this.issuer);
  }

  @Get()
  async list(
    @NumberedPageQuery() page: NumberedPage,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IdentityResponseDto[]> {
    const query = request.query as Record<string, unknown>;
    const withPassword = parseIncludeCredential(query);
    const { records, total } = await this.identities.list(page, query);
    void reply.header('link', numberedPageLinkHeader(request.originalUrl, page, total)).header('x-total-count', String(total));
    return this.responses(records, withPassword, reply);
  }

  @Get(':id')
  async get(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IdentityResponseDto> {
    const withPassword = parseIncludeCredential(query);
    const [response] = await this.responses([await this.identities.get(id)], withPassword, reply);
    return response!;
  }

  /** Maps records, with their password credentials when asked; such an answer is never cached. */
  private async responses(records: readonly IdentityRecord[], withPassword: boolean, reply: FastifyReply): Promise<IdentityResponseDto[]> {
    if (!withPassword) return records.map((record) => toIdentityResponse(record, this.issuer));
    void reply.header('cache-control', 'no-store');
    const credentials = await this.identities.passwordCredentials(records.map((record) => record.identity.id));
    return records.map((record) => toIdentityResponse(record, this.issuer, credentials.get(record.identity.id)));
  }

  @Put(':id')
  async replace(@Param('id') id: string, @Body() body: UpdateIdentityDto): Promise<IdentityResponseDto> {
    return toIdentityResponse(await this.identities.replace(id, body), this.issuer);
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Param('id') id: string): Promise<void> {
    await this.identities.delete(id);
  }
}
