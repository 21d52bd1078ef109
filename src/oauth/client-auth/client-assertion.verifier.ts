import { Injectable } from '@nestjs/common';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { ClientsService, type Client } from '../../clients/index.js';
import { sha256Hex } from '../../common/crypto/digest.js';
import { type OAuth2Config, type UrlsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import type { FormParameters } from '../token-endpoint/form-parameters.js';
import { TokenError } from '../tokens/token.errors.js';
import { TokensRepository } from '../tokens/tokens.repository.js';
import { ClientJwks } from './client-jwks.js';

export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Asymmetric algorithms only: `none` proves nothing, and an HMAC "keyed" with a public key is forgeable. */
export const ASSERTION_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/** Longest accepted assertion lifetime from now: jti values are kept until exp, so exp must be near. */
const MAX_ASSERTION_LIFETIME_SECONDS = 3600;

/**
 * private_key_jwt (RFC 7523 §2.2, §3; OIDC Core §9): the client proves itself with a JWT it signed.
 * `iss` = `sub` = client_id, `aud` names this server (the token endpoint URL, or the issuer), `exp`
 * required and at most an hour ahead, `jti` required and accepted once. The algorithm must be the
 * client's `token_endpoint_auth_signing_alg` when registered, else any asymmetric one; keys come only
 * from the client's registration (`jwks` or `jwks_uri`), never from the assertion's headers. `iat`,
 * when present, must not be later than now plus the clock skew (OAUTH2_CLOCK_SKEW) that `nbf` and `exp`
 * are granted too: an assertion minted for later is one made ahead of time to be used then. Every
 * failure is `invalid_client`.
 */
@Injectable()
export class ClientAssertionVerifier {
  private readonly audiences: string[];
  private readonly clockSkewSeconds: number;

  constructor(
    private readonly clients: ClientsService,
    private readonly jwks: ClientJwks,
    private readonly repository: TokensRepository,
    @InjectConfig('oauth2') oauth2: OAuth2Config,
    @InjectConfig('urls') urls: UrlsConfig,
  ) {
    this.audiences = [`${urls.issuer}/oauth2/token`, urls.issuer, urls.issuerIdentifier];
    this.clockSkewSeconds = oauth2.clockSkewSeconds;
  }

  async verify(parameters: FormParameters): Promise<Client> {
    if (parameters['client_assertion_type'] !== JWT_BEARER_ASSERTION) {
      throw TokenError.invalidClient(false, `client_assertion_type must be ${JWT_BEARER_ASSERTION}.`);
    }
    const assertion = parameters['client_assertion'];
    if (assertion === undefined) throw TokenError.invalidClient(false, 'client_assertion is missing.');
    const { alg, clientId } = peek(assertion);
    if (parameters['client_id'] !== undefined && parameters['client_id'] !== clientId) {
      throw TokenError.invalidClient(false, 'client_id does not match the assertion issuer.');
    }
    const client = await this.clients.get(clientId).catch(() => undefined);
    if (client === undefined || client.tokenEndpointAuthMethod !== 'private_key_jwt') throw TokenError.invalidClient(false);
    const algorithms = client.tokenEndpointAuthSigningAlg === '' ? ASSERTION_ALGORITHMS : [client.tokenEndpointAuthSigningAlg];
    if (!algorithms.includes(alg)) throw TokenError.invalidClient(false, `The assertion algorithm ${alg} is not accepted for this client.`);

    const payload = await this.verifySignature(client, assertion, algorithms);
    const exp = payload.exp!;
    const now = Math.floor(Date.now() / 1000);
    if (exp > now + MAX_ASSERTION_LIFETIME_SECONDS) {
      throw TokenError.invalidClient(false, 'The assertion expires too far in the future.');
    }
    const jtiHash = sha256Hex(payload.jti!);
    if (!(await this.repository.recordJti(client.id, jtiHash, new Date(exp * 1000)))) {
      throw TokenError.invalidClient(false, 'The assertion was used already (jti).');
    }
    return client;
  }

  private async verifySignature(client: Client, assertion: string, algorithms: readonly string[]): Promise<JWTPayload> {
    let keys = await this.jwks.keysOf(client);
    for (let attempt = 0; ; attempt += 1) {
      if (keys === undefined) throw TokenError.invalidClient(false, 'The client key set could not be obtained.');
      try {
        const { payload } = await jwtVerify(assertion, createLocalJWKSet(keys), {
          algorithms: [...algorithms],
          issuer: client.id,
          subject: client.id,
          audience: this.audiences,
          requiredClaims: ['exp', 'jti'],
          clockTolerance: this.clockSkewSeconds,
        });
        if (typeof payload.jti !== 'string' || payload.jti === '') throw TokenError.invalidClient(false, 'The assertion jti is missing.');
        if (payload.iat !== undefined && payload.iat > Math.floor(Date.now() / 1000) + this.clockSkewSeconds) {
          throw TokenError.invalidClient(false, 'The assertion was issued in the future (iat).');
        }
        return payload;
      } catch (error) {
        if (error instanceof TokenError) throw error;
        // The client may have rotated its keys since the document was cached.
        if (error instanceof errors.JWKSNoMatchingKey && attempt === 0 && this.jwks.canRefresh(client)) {
          keys = await this.jwks.keysOf(client, { refresh: true });
          continue;
        }
        throw TokenError.invalidClient(false, 'The client assertion is invalid.');
      }
    }
  }
}

/** The unverified header alg and issuer, to find the client and its keys. */
function peek(assertion: string): { alg: string; clientId: string } {
  try {
    const { alg } = decodeProtectedHeader(assertion);
    const { iss } = decodeJwt(assertion);
    if (typeof alg === 'string' && typeof iss === 'string' && iss !== '') return { alg, clientId: iss };
  } catch {
    // Not a JWT at all: same answer as any other bad assertion.
  }
  throw TokenError.invalidClient(false, 'The client assertion is not a signed JWT naming its issuer.');
}
