import type { Client } from '../../src/clients/client.js';

/** A registered client as the rest of the service sees it (ClientsService.get), for unit specs. */
export function clientFixture(overrides: Partial<Client> = {}): Client {
  return {
    id: 'client-1',
    name: 'Fixture',
    redirectUris: ['https://client.example/cb'],
    grantTypes: ['authorization_code', 'implicit', 'refresh_token'],
    responseTypes: ['code', 'token', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token'],
    scope: 'openid offline_access profile photos.*',
    audience: ['https://api.example/v1'],
    owner: '',
    policyUri: '',
    tosUri: '',
    clientUri: '',
    logoUri: '',
    contacts: [],
    allowedCorsOrigins: [],
    subjectType: 'public',
    sectorIdentifierUri: '',
    jwks: undefined,
    jwksUri: '',
    requestUris: [],
    tokenEndpointAuthMethod: 'client_secret_basic',
    tokenEndpointAuthSigningAlg: '',
    requestObjectSigningAlg: '',
    userinfoSignedResponseAlg: 'none',
    postLogoutRedirectUris: [],
    frontchannelLogoutUri: '',
    frontchannelLogoutSessionRequired: false,
    backchannelLogoutUri: '',
    backchannelLogoutSessionRequired: false,
    metadata: {},
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...overrides,
  };
}
