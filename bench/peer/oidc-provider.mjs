// The peer of the client_credentials scenario: node-oidc-provider (the certified Node provider a team
// would otherwise pick) serving the same grant with client_secret_basic, opaque tokens and its default
// in-memory store: no durable write, so it is the cheapest that provider can be. Started by
// bench/run.mjs as a child process; prints "READY <port>" once it listens.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const port = Number(process.env.PEER_PORT ?? 0);
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: process.env.PEER_CLIENT_ID,
      client_secret: process.env.PEER_CLIENT_SECRET,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'read write',
    },
  ],
  features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
  scopes: ['read', 'write'],
  ttl: { ClientCredentials: 3600 },
  // Its own warning about the in-memory adapter is expected here: that is the configuration compared.
});
provider.proxy = false;

const server = createServer(provider.callback());
server.listen(port, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
