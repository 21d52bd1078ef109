import { Injectable } from '@nestjs/common';
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify, UnsecuredJWT, type JWTPayload } from 'jose';
import { REQUEST_OBJECT_SIGNING_ALGS, type Client } from '../../clients/index.js';
import { sha256Hex } from '../../common/crypto/digest.js';
import { OutboundHttp } from '../../common/http/outbound-http.js';
import type { UrlsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { ClientJwks } from '../client-auth/client-jwks.js';
import { TokensRepository } from '../tokens/tokens.repository.js';
import { AuthorizeError, AuthorizeErrorCode } from './authorize.errors.js';
import type { AuthorizeParameters } from './authorize-parameters.js';

const CLOCK_TOLERANCE_SECONDS = 30;
/** How long the jti of a request object without `exp` is remembered. */
const JTI_RETENTION_WITHOUT_EXP_SECONDS = 3600;
/** JWT claims about the object itself, not authorization request parameters. */
const OBJECT_CLAIMS: ReadonlySet<string> = new Set(['iss', 'aud', 'exp', 'nbf', 'iat', 'jti', 'sub']);
/** Parameters that must agree between the query and the object (OIDC Core §6.1). */
const MUST_AGREE = ['client_id', 'response_type'] as const;
/** Keeps the jtis of request objects apart from those of client assertions in the same table. */
const JTI_PURPOSE = 'request_object:';

/**
 * Request objects (OIDC Core §6): the `request` parameter, or the document at `request_uri`, which must
 * be one of the client's registered `request_uris` and is fetched through OutboundHttp (private
 * addresses refused unless configured, size and time capped, no redirects). The JWT must be signed
 * with the client's `request_object_signing_alg` (any asymmetric one when it registered none) by a key
 * of its `jwks`/`jwks_uri`; an unsigned (`alg: none`) object is accepted only from a client that
 * registered `none`. A signed object names the client as `iss` and this server as `aud`; a `jti` is
 * accepted once within the object's lifetime. Its claims then replace the query's parameters, and
 * `client_id` and `response_type` must agree with the query's. Every failure is shown to the user, as
 * the redirect URI is not known yet.
 */
@Injectable()
export class RequestObjectResolver {
  private readonly audiences: string[];

  constructor(
    private readonly outbound: OutboundHttp,
    private readonly jwks: ClientJwks,
    private readonly repository: TokensRepository,
    @InjectConfig('urls') urls: UrlsConfig,
  ) {
    this.audiences = [...new Set([urls.issuerIdentifier, urls.issuer, `${urls.issuer}/oauth2/auth`])];
  }

  async resolve(params: AuthorizeParameters, client: Client): Promise<AuthorizeParameters> {
    const request = params.get('request');
    const requestUri = params.get('request_uri');
    if (request === undefined && requestUri === undefined) return params;
    if (request !== undefined && requestUri !== undefined) {
      throw AuthorizeError.invalidRequest('request and request_uri must not be used together.');
    }
    const jwt = request ?? (await this.fetch(client, requestUri!));
    const payload = await this.verify(jwt, client);
    // jose checks iat only against a maximum age, so an object "issued" far in the future would pass:
    // it comes from a clock off beyond the tolerance that exp and nbf already get, and is refused as they are.
    if (typeof payload.iat === 'number' && payload.iat > Math.floor(Date.now() / 1000) + CLOCK_TOLERANCE_SECONDS) {
      throw invalidObject('The request object iat is in the future.');
    }
    await this.refuseReplay(payload, client);
    return params.overriddenBy(parametersOf(payload, params));
  }

  private async fetch(client: Client, requestUri: string): Promise<string> {
    if (!client.requestUris.includes(requestUri)) {
      throw new AuthorizeError(AuthorizeErrorCode.InvalidRequestUri, "request_uri is not one of the client's registered request_uris.");
    }
    try {
      const response = await this.outbound.get(requestUri.split('#', 1)[0]!, {
        accept: 'application/oauth-authz-req+jwt, application/jwt',
      });
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      return response.body.toString('utf8').trim();
    } catch {
      // Unreachable, refused (private address), too large, redirected or not 200: nothing to use.
      throw new AuthorizeError(AuthorizeErrorCode.InvalidRequestUri, 'The request_uri could not be fetched.');
    }
  }

  private async verify(jwt: string, client: Client): Promise<JWTPayload> {
    let alg: string | undefined;
    try {
      alg = decodeProtectedHeader(jwt).alg;
    } catch {
      throw invalidObject('The request object is not a JWT.');
    }
    const registered = client.requestObjectSigningAlg;
    if (alg === 'none') {
      if (registered !== 'none') throw invalidObject('Unsigned request objects are not accepted from this client.');
      return this.decodeUnsigned(jwt, client);
    }
    const algorithms = registered === '' ? REQUEST_OBJECT_SIGNING_ALGS : [registered];
    if (alg === undefined || !algorithms.includes(alg)) {
      throw invalidObject(`Request objects of this client must be signed with ${algorithms.join(', ')}.`);
    }
    return this.verifySigned(jwt, client, algorithms);
  }

  private decodeUnsigned(jwt: string, client: Client): JWTPayload {
    try {
      const { payload } = UnsecuredJWT.decode(jwt, { clockTolerance: CLOCK_TOLERANCE_SECONDS });
      if (payload.iss !== undefined && payload.iss !== client.id) throw invalidObject('The request object iss is not the client.');
      if (payload.aud !== undefined && ![payload.aud].flat().some((aud) => this.audiences.includes(aud))) {
        throw invalidObject('The request object aud does not name this server.');
      }
      return payload;
    } catch (error) {
      if (error instanceof AuthorizeError) throw error;
      throw invalidObject('The request object is not a valid unsigned JWT.');
    }
  }

  private async verifySigned(jwt: string, client: Client, algorithms: readonly string[]): Promise<JWTPayload> {
    let keys = await this.jwks.keysOf(client);
    for (let attempt = 0; ; attempt += 1) {
      if (keys === undefined) throw invalidObject('The client has no key set to verify request objects with.');
      try {
        const { payload } = await jwtVerify(jwt, createLocalJWKSet(keys), {
          algorithms: [...algorithms],
          issuer: client.id,
          audience: this.audiences,
          requiredClaims: ['iss', 'aud'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        });
        return payload;
      } catch (error) {
        // The client may have rotated its keys since the document was cached.
        if (error instanceof errors.JWKSNoMatchingKey && attempt === 0 && this.jwks.canRefresh(client)) {
          keys = await this.jwks.keysOf(client, { refresh: true });
          continue;
        }
        throw invalidObject('The request object signature or claims are invalid.');
      }
    }
  }

  private async refuseReplay(payload: JWTPayload, client: Client): Promise<void> {
    if (payload.jti === undefined) return;
    if (typeof payload.jti !== 'string' || payload.jti === '') throw invalidObject('The request object jti must be a string.');
    const until = payload.exp ?? Math.floor(Date.now() / 1000) + JTI_RETENTION_WITHOUT_EXP_SECONDS;
    const jtiHash = sha256Hex(`${JTI_PURPOSE}${payload.jti}`);
    if (!(await this.repository.recordJti(client.id, jtiHash, new Date(until * 1000)))) {
      throw invalidObject('The request object was used already (jti).');
    }
  }
}

/** The object's claims as authorization parameters; `client_id` and `response_type` must agree with the query. */
function parametersOf(payload: JWTPayload, query: AuthorizeParameters): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (OBJECT_CLAIMS.has(name) || value === undefined || value === null) continue;
    if (name === 'request' || name === 'request_uri') throw invalidObject(`A request object must not contain ${name}.`);
    parameters[name] = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  for (const name of MUST_AGREE) {
    const inQuery = query.get(name);
    if (parameters[name] !== undefined && inQuery !== undefined && parameters[name] !== inQuery) {
      throw invalidObject(`The request object's ${name} differs from the request's.`);
    }
  }
  return parameters;
}

function invalidObject(message: string): AuthorizeError {
  return new AuthorizeError(AuthorizeErrorCode.InvalidRequestObject, message);
}
