import { beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { ChangeNotifier } from '../database/change-notifier.js';
import { ClientSecretHasher } from './client-secret-hasher.js';
import type { ClientValidator } from './client-validator.js';
import { ClientsErrorCode, type ClientsError } from './clients.errors.js';
import type { ClientsRepository } from './clients.repository.js';
import { CLIENTS_TOPIC, ClientsService } from './clients.service.js';
import { ClientEntity } from './entities/client.entity.js';

/** A stand-in for PostgreSQL: rows by id, each with its hash. */
class FakeRepository {
  readonly rows = new Map<string, ClientEntity>();
  reads = 0;

  findWithSecretHash(id: string): Promise<ClientEntity | null> {
    this.reads += 1;
    return Promise.resolve(this.rows.get(id) ?? null);
  }

  getById(id: string): Promise<ClientEntity> {
    const row = this.rows.get(id);
    return row === undefined ? Promise.reject(new Error('not found')) : Promise.resolve(row);
  }
}

/** Delivers to local subscribers, like ChangeNotifier does for this instance and the others. */
class FakeNotifier {
  private readonly listeners: Array<(key: string) => void> = [];
  subscribe(_topic: string, listener: (key: string) => void): void {
    this.listeners.push(listener);
  }
  announce(key: string): void {
    for (const listener of this.listeners) listener(key);
  }
  versionOf(): () => Promise<string> {
    return () => Promise.resolve('0');
  }
}

function row(id: string, secretHash: string | null): ClientEntity {
  return Object.assign(new ClientEntity(), {
    id,
    clientName: id,
    secretHash,
    redirectUris: [],
    grantTypes: ['client_credentials'],
    responseTypes: [],
    scope: 'openid',
    audience: [],
    owner: '',
    policyUri: '',
    tosUri: '',
    clientUri: '',
    logoUri: '',
    contacts: [],
    allowedCorsOrigins: [],
    subjectType: 'public',
    sectorIdentifierUri: '',
    jwks: null,
    jwksUri: '',
    requestUris: [],
    tokenEndpointAuthMethod: secretHash === null ? 'none' : 'client_secret_basic',
    tokenEndpointAuthSigningAlg: '',
    requestObjectSigningAlg: '',
    userinfoSignedResponseAlg: 'none',
    postLogoutRedirectUris: [],
    frontchannelLogoutUri: '',
    frontchannelLogoutSessionRequired: false,
    backchannelLogoutUri: '',
    backchannelLogoutSessionRequired: false,
    metadata: {},
    createdAt: new Date(),
    updatedAt: new Date(),
  });
}

describe('ClientsService.authenticate', () => {
  const hasher = new ClientSecretHasher();
  let repository: FakeRepository;
  let notifier: FakeNotifier;
  let service: ClientsService;
  let verify: MockInstance<ClientSecretHasher['verify']>;

  beforeEach(async () => {
    repository = new FakeRepository();
    repository.rows.set('app', row('app', await hasher.hash('app-secret')));
    repository.rows.set('spa', row('spa', null));
    notifier = new FakeNotifier();
    service = new ClientsService(
      repository as unknown as ClientsRepository,
      {} as ClientValidator,
      hasher,
      notifier as unknown as ChangeNotifier,
      { system: ['unit-test-system-secret'] },
    );
    service.onModuleInit();
    verify = vi.spyOn(hasher, 'verify');
    verify.mockClear();
  });

  const refusal = (clientId: string, secret: string): Promise<ClientsError> =>
    service.authenticate(clientId, secret).then(
      () => {
        throw new Error('expected invalid_client');
      },
      (error: ClientsError) => error,
    );

  it('returns the client for the right secret', async () => {
    await expect(service.authenticate('app', 'app-secret')).resolves.toMatchObject({
      id: 'app',
      tokenEndpointAuthMethod: 'client_secret_basic',
    });
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('gives the same invalid_client, after one PBKDF2 run each, for a wrong secret, an unknown client and a public client', async () => {
    const dummy = await hasher.dummyHash();
    for (const [clientId, secret] of [
      ['app', 'wrong-secret'],
      ['ghost', 'app-secret'],
      ['spa', 'anything'],
    ] as const) {
      verify.mockClear();
      const error = await refusal(clientId, secret);
      expect(error.reason).toBe(ClientsErrorCode.InvalidClient);
      expect(error.code).toBe('invalid_client');
      expect(verify).toHaveBeenCalledTimes(1);
      if (clientId !== 'app') expect(verify).toHaveBeenCalledWith(secret, dummy);
    }
  });

  it('remembers a success, so the next check skips PBKDF2', async () => {
    await service.authenticate('app', 'app-secret');
    await service.authenticate('app', 'app-secret');
    await service.authenticate('app', 'app-secret');
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('never remembers a failure', async () => {
    await refusal('app', 'wrong-secret');
    await refusal('app', 'wrong-secret');
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('does not let a remembered success stand for another secret', async () => {
    await service.authenticate('app', 'app-secret');
    await refusal('app', 'app-secret-2');
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('forgets a client when a change is announced for it (on any instance), or for everything', async () => {
    await service.authenticate('app', 'app-secret');
    repository.rows.set('app', row('app', await hasher.hash('rotated-secret')));
    notifier.announce('app');
    await refusal('app', 'app-secret');
    await service.authenticate('app', 'rotated-secret');
    await service.authenticate('app', 'rotated-secret');
    expect(verify).toHaveBeenCalledTimes(3);
    notifier.announce('*');
    await service.authenticate('app', 'rotated-secret');
    expect(verify).toHaveBeenCalledTimes(4);
  });

  it('does not remember a check that raced with a rotation', async () => {
    const original = repository.findWithSecretHash.bind(repository);
    repository.findWithSecretHash = async (id) => {
      const found = await original(id);
      notifier.announce(id);
      return found;
    };
    await service.authenticate('app', 'app-secret');
    repository.findWithSecretHash = original;
    await service.authenticate('app', 'app-secret');
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('subscribes to the clients topic', () => {
    const subscribe = vi.fn();
    new ClientsService(
      repository as unknown as ClientsRepository,
      {} as ClientValidator,
      hasher,
      { subscribe, versionOf: () => () => Promise.resolve('0') } as unknown as ChangeNotifier,
      { system: [] },
    ).onModuleInit();
    expect(subscribe).toHaveBeenCalledWith(CLIENTS_TOPIC, expect.any(Function), expect.any(Function));
  });
});
