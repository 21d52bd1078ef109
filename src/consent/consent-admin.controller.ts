import { Body, Delete, Get, HttpCode, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminController } from '../common/auth/controllers.js';
import type { Page } from '../common/pagination/page.js';
import { PageQuery } from '../common/pagination/page-query.decorator.js';
import { setPaginationHeaders } from '../common/pagination/pagination-headers.js';
import { ConsentAdminService } from './consent-admin.service.js';
import { toConsentRequestResponse, toConsentSessionResponse, toLoginRequestResponse, toLogoutRequestResponse } from './consent.mapper.js';
import { AcceptConsentRequestDto } from './dto/accept-consent-request.dto.js';
import { AcceptLoginRequestDto } from './dto/accept-login-request.dto.js';
import type { CompletedRequestDto } from './dto/completed-request.dto.js';
import type { ConsentRequestResponseDto } from './dto/consent-request-response.dto.js';
import type { ConsentSessionResponseDto } from './dto/consent-session-response.dto.js';
import type { LoginRequestResponseDto } from './dto/login-request-response.dto.js';
import type { LogoutRequestResponseDto } from './dto/logout-request-response.dto.js';
import { RejectRequestDto } from './dto/reject-request.dto.js';
import { QueryParameter } from './query-parameter.decorator.js';

const LOGIN_CHALLENGE = ['login_challenge', { aliases: ['challenge'], required: true }] as const;
const CONSENT_CHALLENGE = ['consent_challenge', { aliases: ['challenge'], required: true }] as const;
const LOGOUT_CHALLENGE = ['logout_challenge', { aliases: ['challenge'], required: true }] as const;
const SUBJECT = ['subject', { required: true }] as const;

/**
 * The login/consent/logout hand-off of the admin API (Hydra v1.5's `/oauth2/auth/requests/*` and
 * `/oauth2/auth/sessions/*`, also under `/admin`), for the login, consent and logout apps.
 */
@AdminController('oauth2/auth')
export class ConsentAdminController {
  constructor(private readonly consent: ConsentAdminService) {}

  @Get('requests/login')
  async getLoginRequest(@QueryParameter(LOGIN_CHALLENGE) challenge: string): Promise<LoginRequestResponseDto> {
    return toLoginRequestResponse(await this.consent.getLoginRequest(challenge));
  }

  @Put('requests/login/accept')
  async acceptLoginRequest(
    @QueryParameter(LOGIN_CHALLENGE) challenge: string,
    @Body() body: AcceptLoginRequestDto,
  ): Promise<CompletedRequestDto> {
    return { redirect_to: await this.consent.acceptLoginRequest(challenge, body) };
  }

  @Put('requests/login/reject')
  async rejectLoginRequest(
    @QueryParameter(LOGIN_CHALLENGE) challenge: string,
    @Body() body: RejectRequestDto,
  ): Promise<CompletedRequestDto> {
    return { redirect_to: await this.consent.rejectLoginRequest(challenge, body) };
  }

  @Get('requests/consent')
  async getConsentRequest(@QueryParameter(CONSENT_CHALLENGE) challenge: string): Promise<ConsentRequestResponseDto> {
    return toConsentRequestResponse(await this.consent.getConsentRequest(challenge));
  }

  @Put('requests/consent/accept')
  async acceptConsentRequest(
    @QueryParameter(CONSENT_CHALLENGE) challenge: string,
    @Body() body: AcceptConsentRequestDto,
  ): Promise<CompletedRequestDto> {
    return { redirect_to: await this.consent.acceptConsentRequest(challenge, body) };
  }

  @Put('requests/consent/reject')
  async rejectConsentRequest(
    @QueryParameter(CONSENT_CHALLENGE) challenge: string,
    @Body() body: RejectRequestDto,
  ): Promise<CompletedRequestDto> {
    return { redirect_to: await this.consent.rejectConsentRequest(challenge, body) };
  }

  @Get('requests/logout')
  async getLogoutRequest(@QueryParameter(LOGOUT_CHALLENGE) challenge: string): Promise<LogoutRequestResponseDto> {
    return toLogoutRequestResponse(await this.consent.getLogoutRequest(challenge));
  }

  @Put('requests/logout/accept')
  async acceptLogoutRequest(@QueryParameter(LOGOUT_CHALLENGE) challenge: string): Promise<CompletedRequestDto> {
    return { redirect_to: await this.consent.acceptLogoutRequest(challenge) };
  }

  @Put('requests/logout/reject')
  @HttpCode(204)
  async rejectLogoutRequest(@QueryParameter(LOGOUT_CHALLENGE) challenge: string): Promise<void> {
    await this.consent.rejectLogoutRequest(challenge);
  }

  @Delete('sessions/login')
  @HttpCode(204)
  async revokeLoginSessions(@QueryParameter(SUBJECT) subject: string): Promise<void> {
    await this.consent.revokeLoginSessions(subject);
  }

  @Get('sessions/consent')
  async listConsentSessions(
    @QueryParameter(SUBJECT) subject: string,
    @PageQuery() page: Page,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsentSessionResponseDto[]> {
    const { items, total } = await this.consent.listConsentSessions(subject, page);
    setPaginationHeaders(request, reply, page, total);
    return items.map(toConsentSessionResponse);
  }

  @Delete('sessions/consent')
  @HttpCode(204)
  async revokeConsentSessions(
    @QueryParameter(SUBJECT) subject: string,
    @QueryParameter(['client', { required: false }]) client: string | undefined,
  ): Promise<void> {
    await this.consent.revokeConsentSessions(subject, client);
  }
}
