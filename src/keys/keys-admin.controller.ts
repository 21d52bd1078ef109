import { Body, Delete, Get, Header, HttpCode, Param, Post, Put } from '@nestjs/common';
import { AdminController } from '../common/auth/controllers.js';
import { GenerateKeyDto } from './dto/generate-key.dto.js';
import type { JsonWebKeySetResponse } from './dto/json-web-key-set.response.js';
import { JsonWebKeySetDto } from './dto/json-web-key-set.dto.js';
import { JsonWebKeyDto } from './dto/json-web-key.dto.js';
import type { FullJwk } from './jwk.js';
import { toAdminJwk, toAdminSet } from './keys.mapper.js';
import { KeysService } from './keys.service.js';

/** `/keys` on the admin listener. Responses carry private key material: never stored by caches. */
@AdminController('keys')
export class KeysAdminController {
  constructor(private readonly keys: KeysService) {}

  @Get(':set')
  @Header('cache-control', 'no-store')
  async getSet(@Param('set') set: string): Promise<JsonWebKeySetResponse> {
    return toAdminSet(await this.keys.getSet(set));
  }

  @Get(':set/:kid')
  @Header('cache-control', 'no-store')
  async getKey(@Param('set') set: string, @Param('kid') kid: string): Promise<JsonWebKeySetResponse> {
    return toAdminSet([await this.keys.getKey(set, kid)]);
  }

  @Post(':set')
  @HttpCode(201)
  @Header('cache-control', 'no-store')
  async generate(@Param('set') set: string, @Body() body: GenerateKeyDto): Promise<JsonWebKeySetResponse> {
    return toAdminSet([await this.keys.generate(set, body)]);
  }

  @Put(':set')
  @Header('cache-control', 'no-store')
  async importSet(@Param('set') set: string, @Body() body: JsonWebKeySetDto): Promise<JsonWebKeySetResponse> {
    return toAdminSet(await this.keys.importSet(set, body.keys));
  }

  @Put(':set/:kid')
  @Header('cache-control', 'no-store')
  async importKey(@Param('set') set: string, @Param('kid') kid: string, @Body() body: JsonWebKeyDto): Promise<FullJwk> {
    return toAdminJwk(await this.keys.importKey(set, kid, body));
  }

  @Delete(':set')
  @HttpCode(204)
  async deleteSet(@Param('set') set: string): Promise<void> {
    await this.keys.deleteSet(set);
  }

  @Delete(':set/:kid')
  @HttpCode(204)
  async deleteKey(@Param('set') set: string, @Param('kid') kid: string): Promise<void> {
    await this.keys.deleteKey(set, kid);
  }
}
