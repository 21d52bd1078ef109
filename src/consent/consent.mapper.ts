import { toClientResponse } from '../clients/index.js';
import type { ConsentRequestView, LoginRequestView } from './consent-admin.service.js';
import type { ConsentRequestResponseDto } from './dto/consent-request-response.dto.js';
import type { ConsentSessionResponseDto } from './dto/consent-session-response.dto.js';
import type { LoginRequestResponseDto } from './dto/login-request-response.dto.js';
import type { LogoutRequestResponseDto } from './dto/logout-request-response.dto.js';
import type { OidcContextResponseDto } from './dto/oidc-context-response.dto.js';
import type { LogoutRequestEntity } from './entities/logout-request.entity.js';
import { asJsonObject, type StoredOidcContext } from './entities/stored-oidc-context.js';

export function toLoginRequestResponse(view: LoginRequestView): LoginRequestResponseDto {
  const { request } = view;
  return {
    challenge: view.challenge,
    requested_scope: [...request.requestedScope],
    requested_access_token_audience: [...request.requestedAudience],
    skip: request.skip,
    subject: request.skip ? request.subject : '',
    oidc_context: toOidcContextResponse(request.oidcContext),
    client: toClientResponse(view.client),
    request_url: request.requestUrl,
    session_id: request.loginSessionId,
  };
}

export function toConsentRequestResponse(view: ConsentRequestView): ConsentRequestResponseDto {
  const { request } = view;
  return {
    challenge: view.challenge,
    requested_scope: [...request.requestedScope],
    requested_access_token_audience: [...request.requestedAudience],
    skip: request.skip,
    subject: request.subject,
    oidc_context: toOidcContextResponse(request.oidcContext),
    client: toClientResponse(view.client),
    request_url: request.requestUrl,
    login_challenge: view.loginChallenge,
    login_session_id: request.loginSessionId ?? '',
    acr: request.acr,
    amr: [...request.amr],
    context: asJsonObject(request.context),
  };
}

export function toConsentSessionResponse(view: ConsentRequestView): ConsentSessionResponseDto {
  const { request } = view;
  return {
    consent_request: toConsentRequestResponse(view),
    grant_scope: [...request.grantedScope],
    grant_access_token_audience: [...request.grantedAudience],
    session: { access_token: asJsonObject(request.sessionAccessToken), id_token: asJsonObject(request.sessionIdToken) },
    remember: request.remember,
    remember_for: request.rememberFor,
    handled_at: (request.handledAt ?? request.requestedAt).toISOString(),
  };
}

export function toLogoutRequestResponse(request: LogoutRequestEntity): LogoutRequestResponseDto {
  return {
    subject: request.subject,
    sid: request.sessionId,
    request_url: request.requestUrl,
    rp_initiated: request.rpInitiated,
    ...(request.logoutHint === '' ? {} : { logout_hint: request.logoutHint }),
    ...(request.uiLocales.length === 0 ? {} : { ui_locales: [...request.uiLocales] }),
  };
}

/** Hydra leaves empty members out (omitempty). */
function toOidcContextResponse(context: StoredOidcContext): OidcContextResponseDto {
  return {
    ...(context.acr_values === undefined || context.acr_values.length === 0 ? {} : { acr_values: [...context.acr_values] }),
    ...(context.ui_locales === undefined || context.ui_locales.length === 0 ? {} : { ui_locales: [...context.ui_locales] }),
    ...(context.display === undefined || context.display === '' ? {} : { display: context.display }),
    ...(context.id_token_hint_claims === undefined ? {} : { id_token_hint_claims: { ...context.id_token_hint_claims } }),
    ...(context.login_hint === undefined || context.login_hint === '' ? {} : { login_hint: context.login_hint }),
    ...(context.claims === undefined ? {} : { claims: asJsonObject(context.claims) }),
  };
}
