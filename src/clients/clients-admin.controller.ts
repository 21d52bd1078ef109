import { Body, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminController } from '../common/auth/controllers.js';
import type { Page } from '../common/pagination/page.js';
import { PageQuery } from '../common/pagination/page-query.decorator.js';
import { setPaginationHeaders } from '../common/pagination/pagination-headers.js';
import { ClientsService } from './clients.service.js';
import { toClientResponse } from './clients.mapper.js';
import { CreateClientDto } from './dto/create-client.dto.js';
import type { ClientResponseDto } from './dto/client-response.dto.js';
import { UpdateClientDto } from './dto/update-client.dto.js';

/** The OAuth 2.0 client registry of the admin API (`/clients`, also `/admin/clients`). */
@AdminController('clients')
export class ClientsAdminController {
  constructor(private readonly clients: ClientsService) {}

  @Post()
  @HttpCode(201)
  async create(@Body() body: CreateClientDto): Promise<ClientResponseDto> {
    const { client, secret } = await this.clients.create(body);
    return toClientResponse(client, secret);
  }

  @Get()
  async list(
    @PageQuery() page: Page,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ClientResponseDto[]> {
    const { items, total } = await this.clients.list(page);
    setPaginationHeaders(request, reply, page, total);
    return items.map((client) => toClientResponse(client));
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<ClientResponseDto> {
    return toClientResponse(await this.clients.get(id));
  }

  @Put(':id')
  async replace(@Param('id') id: string, @Body() body: UpdateClientDto): Promise<ClientResponseDto> {
    const { client, secret } = await this.clients.replace(id, body);
    return toClientResponse(client, secret);
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Param('id') id: string): Promise<void> {
    await this.clients.delete(id);
  }
}
