import { Body, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminController } from '../common/auth/controllers.js';
import type { Page } from '../common/pagination/page.js';
import { PageQuery } from '../common/pagination/page-query.decorator.js';
import { setPaginationHeaders } from '../common/pagination/pagination-headers.js';
import type { UrlsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ConnectionsService } from './connections.service.js';
import { toConnectionResponse, toEventResponse } from './directory-sync.mapper.js';
import { EventLog } from './event-log.js';
import type { ConnectionResponseDto } from './dto/connection-response.dto.js';
import { CreateConnectionDto } from './dto/create-connection.dto.js';
import type { EventResponseDto } from './dto/event-response.dto.js';
import { ListEventsQueryDto } from './dto/list-events-query.dto.js';

/** Directory-sync connections (`/directory-sync/connections`, also under `/admin`) and their event logs. */
@AdminController('directory-sync/connections')
export class ConnectionsAdminController {
  private readonly issuer: string;

  constructor(
    private readonly connections: ConnectionsService,
    private readonly events: EventLog,
    @InjectConfig('urls') urls: UrlsConfig,
  ) {
    this.issuer = urls.issuer;
  }

  @Post()
  @HttpCode(201)
  async create(@Body() body: CreateConnectionDto): Promise<ConnectionResponseDto> {
    const { connection, secret } = await this.connections.create(body);
    return toConnectionResponse(connection, this.issuer, secret);
  }

  @Get()
  async list(
    @PageQuery() page: Page,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConnectionResponseDto[]> {
    const { rows, total } = await this.connections.list(page);
    setPaginationHeaders(request, reply, page, total);
    return rows.map((row) => toConnectionResponse(row, this.issuer));
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<ConnectionResponseDto> {
    return toConnectionResponse(await this.connections.get(id), this.issuer);
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Param('id') id: string): Promise<void> {
    await this.connections.delete(id);
  }

  @Post(':id/secret')
  @HttpCode(200)
  async rotateSecret(@Param('id') id: string): Promise<ConnectionResponseDto> {
    const { connection, secret } = await this.connections.rotateSecret(id);
    return toConnectionResponse(connection, this.issuer, secret);
  }

  @Get(':id/events')
  async listEvents(
    @Param('id') id: string,
    @PageQuery() page: Page,
    @Query() query: ListEventsQueryDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<EventResponseDto[]> {
    const { rows, total } = await this.events.list(id, query.outcome, page);
    setPaginationHeaders(request, reply, page, total);
    return rows.map(toEventResponse);
  }
}
