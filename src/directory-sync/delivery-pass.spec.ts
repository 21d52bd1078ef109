import type { EntityManager } from 'typeorm';
import { describe, expect, it } from 'vitest';
import type { IdentitiesService } from '../identities/index.js';
import { DeliveryPass } from './delivery-pass.js';
import type { DirectoryEvent } from './directory-event.js';
import { DirectoryUserLinkEntity } from './entities/directory-user-link.entity.js';
import type { SyncLedgerRepository } from './sync-ledger.repository.js';

const CONNECTION = 'c0000000-0000-4000-8000-000000000000';
const manager = {} as EntityManager;

/** The two tables the pass reads, in memory, and every statement it sent. */
class Tables {
  readonly statements: string[] = [];
  /** Directory user → identity (null: the link stays, the identity went). */
  readonly links = new Map<string, string | null>();
  /** Normalized e-mail → owning identity. */
  readonly owners = new Map<string, string>();

  ledger(): SyncLedgerRepository {
    const link = (user: string): DirectoryUserLinkEntity =>
      Object.assign(new DirectoryUserLinkEntity(), { connectionId: CONNECTION, directoryUserId: user, identityId: this.links.get(user) });
    const linked = (id: string): boolean => [...this.links.values()].includes(id);
    return {
      findUserLinks: (_: EntityManager, __: string, users: readonly string[]) => {
        this.statements.push('findUserLinks');
        return Promise.resolve(users.filter((user) => this.links.has(user)).map(link));
      },
      findUserLink: (_: EntityManager, __: string, user: string) => {
        this.statements.push('findUserLink');
        return Promise.resolve(this.links.has(user) ? link(user) : null);
      },
      linkedIdentities: (_: EntityManager, ids: readonly string[]) => {
        this.statements.push('linkedIdentities');
        return Promise.resolve(new Set(ids.filter(linked)));
      },
      isIdentityLinked: (_: EntityManager, id: string) => {
        this.statements.push('isIdentityLinked');
        return Promise.resolve(linked(id));
      },
      saveUserLinks: (_: EntityManager, links: readonly DirectoryUserLinkEntity[]) => {
        this.statements.push(`saveUserLinks ${links.map((entry) => entry.directoryUserId).join(',')}`);
        for (const entry of links) this.links.set(entry.directoryUserId, entry.identityId);
        return Promise.resolve();
      },
    } as unknown as SyncLedgerRepository;
  }

  identities(): IdentitiesService {
    return {
      idsByEmailWithin: (_: EntityManager, emails: readonly string[]) => {
        this.statements.push('idsByEmailWithin');
        const found = new Map<string, string>();
        for (const email of emails) if (this.owners.has(email.toLowerCase())) found.set(email, this.owners.get(email.toLowerCase())!);
        return Promise.resolve(found);
      },
      idByEmailWithin: (_: EntityManager, email: string) => {
        this.statements.push('idByEmailWithin');
        return Promise.resolve(this.owners.get(email.toLowerCase()));
      },
    } as unknown as IdentitiesService;
  }

  /** What the event-by-event pass would answer now, without recording statements. */
  adoptable(email: string): string | null {
    const owner = this.owners.get(email.toLowerCase());
    return owner === undefined || [...this.links.values()].includes(owner) ? null : owner;
  }
}

function created(user: string, email: string): DirectoryEvent {
  return { kind: 'user.created', directoryId: 'd', tenant: '', product: '', data: { id: user, email }, userId: user, group: undefined };
}

function link(user: string, identityId: string | null): DirectoryUserLinkEntity {
  return Object.assign(new DirectoryUserLinkEntity(), { connectionId: CONNECTION, directoryUserId: user, identityId });
}

async function prefetched(tables: Tables, events: readonly DirectoryEvent[]): Promise<DeliveryPass> {
  return DeliveryPass.prefetched(tables.ledger(), tables.identities(), manager, CONNECTION, events);
}

describe('DeliveryPass', () => {
  it('reads the links and e-mail owners of a delivery once, and writes its links in one statement at the end', async () => {
    const tables = new Tables();
    tables.owners.set('kept@example.com', 'identity-w');
    tables.links.set('known', 'identity-k');
    const pass = await prefetched(tables, [
      created('new', 'New@example.com'),
      created('kept', 'kept@example.com'),
      created('known', 'k@x.io'),
    ]);
    expect(tables.statements).toEqual(['findUserLinks', 'idsByEmailWithin', 'linkedIdentities']);

    expect((await pass.userLink('known'))?.identityId).toBe('identity-k');
    expect(await pass.userLink('new')).toBeNull();
    expect(await pass.adoptable('New@example.com')).toBe(tables.adoptable('New@example.com'));
    expect(await pass.adoptable('kept@example.com')).toBe('identity-w');
    await pass.saveUserLink(link('new', 'identity-n'));
    await pass.saveUserLink(link('new', 'identity-n2'));
    expect((await pass.userLink('new'))?.identityId).toBe('identity-n2');
    expect(tables.statements).toHaveLength(3);

    await pass.flush();
    expect(tables.statements.slice(3)).toEqual(['saveUserLinks new']);
    expect(tables.links.get('new')).toBe('identity-n2');
  });

  it('reads again, as the event-by-event pass would, an answer a write of the pass may have changed', async () => {
    const tables = new Tables();
    tables.owners.set('adopt@example.com', 'identity-w');
    const pass = await prefetched(tables, [
      created('first', 'adopt@example.com'),
      created('second', 'adopt@example.com'),
      created('third', 'fresh@example.com'),
      created('fourth', 'fresh@example.com'),
    ]);
    const reads = tables.statements.length;

    // The first adopts the owner: the owner is written, and linked once its link is stored.
    expect(await pass.adoptable('adopt@example.com')).toBe('identity-w');
    pass.writing('identity-w', { email: 'adopt@example.com' });
    await pass.saveUserLink(link('first', 'identity-w'));
    expect(await pass.adoptable('adopt@example.com')).toBe(tables.adoptable('adopt@example.com'));
    expect(await pass.adoptable('adopt@example.com')).toBeNull();
    expect(tables.statements.slice(reads, reads + 3)).toEqual(['saveUserLinks first', 'idByEmailWithin', 'isIdentityLinked']);

    // The third creates an identity whose traits hold the fourth's e-mail (in another case).
    expect(await pass.adoptable('fresh@example.com')).toBeNull();
    pass.writing(null, { email: 'FRESH@example.com', name: { first: 'Ada' } });
    tables.owners.set('fresh@example.com', 'identity-t');
    const before = tables.statements.length;
    expect(await pass.adoptable('fresh@example.com')).toBe(tables.adoptable('fresh@example.com'));
    expect(tables.statements.length).toBeGreaterThan(before);
  });

  it('leaves an answer no write of the pass could change', async () => {
    const tables = new Tables();
    tables.owners.set('stays@example.com', 'identity-s');
    const pass = await prefetched(tables, [created('one', 'stays@example.com'), created('two', 'other@example.com')]);
    pass.writing(null, { email: 'other@example.com', age: 42 });
    pass.writing('identity-x', { email: 'another@example.com' });
    const before = tables.statements.length;
    expect(await pass.adoptable('stays@example.com')).toBe('identity-s');
    expect(tables.statements).toHaveLength(before);
  });

  it('event by event, reads and writes each link when asked', async () => {
    const tables = new Tables();
    tables.links.set('u', 'identity-u');
    const pass = DeliveryPass.eventByEvent(tables.ledger(), tables.identities(), manager, CONNECTION);
    expect((await pass.userLink('u'))?.identityId).toBe('identity-u');
    await pass.saveUserLink(link('v', null));
    expect(await pass.adoptable('nobody@example.com')).toBeNull();
    expect(tables.statements).toEqual(['findUserLink', 'saveUserLinks v', 'idByEmailWithin']);
  });
});
