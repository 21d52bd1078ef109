import { Body, Delete, Get, HttpCode, Param, Put, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AdminController } from '../common/auth/controllers.js';
import type { Page } from '../common/pagination/page.js';
import { PageQuery } from '../common/pagination/page-query.decorator.js';
import type { RuleResponseDto } from './dto/rule-response.dto.js';
import { toRuleResponse } from './rules.mapper.js';
import { RulesService } from './rules.service.js';

/** Oathkeeper's `GET /rules` page size: 50 by default, at most 500. */
const RULES_PAGE = { defaultLimit: 50, maxLimit: 500 } as const;

/**
 * Access rules (Oathkeeper's read API, plus writes of stored rules). The body of a PUT is checked by
 * the rules context itself (the rule schema and the decision handlers' validators), not by a DTO.
 */
@AdminController('rules')
export class RulesAdminController {
  constructor(private readonly rules: RulesService) {}

  @Get()
  list(@PageQuery(RULES_PAGE) page: Page): RuleResponseDto[] {
    return this.rules.list(page).map(toRuleResponse);
  }

  @Get(':id')
  get(@Param('id') id: string): RuleResponseDto {
    return toRuleResponse(this.rules.get(id));
  }

  /** 201 when the rule is new, 200 when it replaced one. */
  @Put(':id')
  async put(@Param('id') id: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<RuleResponseDto> {
    const { rule, created } = await this.rules.put(id, body);
    void reply.status(created ? 201 : 200);
    return toRuleResponse(rule);
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Param('id') id: string): Promise<void> {
    await this.rules.delete(id);
  }
}
