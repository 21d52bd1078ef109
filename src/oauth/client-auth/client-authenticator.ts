import { Injectable } from '@nestjs/common';
import { ClientsError, ClientsErrorCode, ClientsService, type Client, type TokenEndpointAuthMethod } from '../../clients/index.js';
import type { FormParameters } from '../token-endpoint/form-parameters.js';
import { TokenError } from '../tokens/token.errors.js';
import { basicCredentials } from './basic-credentials.js';
import { ClientAssertionVerifier } from './client-assertion.verifier.js';

/**
 * Client authentication at the token, revocation endpoints (RFC 6749 §2.3, §3.2.1), by the method the
 * client registered and no other: a `client_secret_post` client sending Basic, or a public client
 * sending a secret, is refused. More than one mechanism in one request is an `invalid_request`
 * (RFC 6749 §5.2). Unknown client, wrong secret and wrong method are one `invalid_client` (401, with
 * `WWW-Authenticate: Basic` when Basic was tried); secret checks cost the same for unknown clients.
 */
@Injectable()
export class ClientAuthenticator {
  constructor(
    private readonly clients: ClientsService,
    private readonly assertions: ClientAssertionVerifier,
  ) {}

  async authenticate(authorization: string | undefined, parameters: FormParameters): Promise<Client> {
    const basic = basicCredentials(authorization);
    if (basic === null) throw TokenError.invalidClient(true, 'The Authorization header is not valid HTTP Basic client credentials.');
    const bodySecret = parameters['client_secret'];
    const assertion = parameters['client_assertion'] !== undefined || parameters['client_assertion_type'] !== undefined;
    const mechanisms = (basic === undefined ? 0 : 1) + (bodySecret === undefined ? 0 : 1) + (assertion ? 1 : 0);
    if (mechanisms > 1) throw TokenError.invalidRequest('The request uses more than one client authentication mechanism.');
    const clientId = parameters['client_id'];

    if (basic !== undefined) {
      if (clientId !== undefined && clientId !== basic.clientId) {
        throw TokenError.invalidRequest('client_id differs from the client in the Authorization header.', 'client_id');
      }
      return this.withSecret(basic.clientId, basic.secret, 'client_secret_basic');
    }
    if (bodySecret !== undefined) {
      if (clientId === undefined) throw TokenError.invalidClient(false, 'client_secret was sent without client_id.');
      return this.withSecret(clientId, bodySecret, 'client_secret_post');
    }
    if (assertion) return this.assertions.verify(parameters);
    if (clientId === undefined) throw TokenError.invalidClient(false, 'The request carries no client authentication.');
    const client = await this.clients.get(clientId).catch(() => undefined);
    if (client === undefined || client.tokenEndpointAuthMethod !== 'none') throw TokenError.invalidClient(false);
    return client;
  }

  private async withSecret(clientId: string, secret: string, method: TokenEndpointAuthMethod): Promise<Client> {
    const basic = method === 'client_secret_basic';
    let client: Client;
    try {
      client = await this.clients.authenticate(clientId, secret);
    } catch (error) {
      if (error instanceof ClientsError && error.reason === ClientsErrorCode.InvalidClient) throw TokenError.invalidClient(basic);
      throw error;
    }
    if (client.tokenEndpointAuthMethod !== method) throw TokenError.invalidClient(basic);
    return client;
  }
}
