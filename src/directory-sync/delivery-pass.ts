import type { EntityManager } from 'typeorm';
import { normalizeIdentifier } from '../common/text/identifier-normalization.js';
import type { IdentitiesService } from '../identities/index.js';
import type { DirectoryEvent } from './directory-event.js';
import type { DirectoryUserLinkEntity } from './entities/directory-user-link.entity.js';
import type { SyncLedgerRepository } from './sync-ledger.repository.js';

/** What the adoption check learnt about one e-mail of the delivery before the pass wrote anything. */
interface EmailOwner {
  /** The identity owning the e-mail, if any. */
  readonly owner: string | undefined;
  /** Whether a directory user is linked to that identity. */
  readonly linked: boolean;
  /** The e-mail as identifiers and addresses are stored; undefined when normalization refuses it. */
  readonly normalized: string | undefined;
}

/**
 * The user links and e-mail owners one pass over a delivery's events reads, and the links it writes.
 *
 * Event by event (`eventByEvent`), each read and write is a statement when the event makes it: an
 * event that fails rolls back to its own savepoint, its writes with it.
 *
 * In one pass (`prefetched`), the links of the delivery's users are read in one statement once they
 * are locked (`lockUsers`: no other delivery changes them until the commit), and so are the owners
 * of the e-mails the adoption check will be asked about; the pass's own writes then keep both
 * answers what a statement at that point would read, and its link writes go out in one statement at
 * the end (`flush`). Until then the only read of other users' links is `adoptable`'s, which stores
 * them first. The pass is all or nothing (one savepoint), so a deferred write that fails fails the
 * pass, and the delivery goes event by event.
 */
export class DeliveryPass {
  /** Links written by the pass and not yet stored: one per directory user, the last. */
  private readonly pending = new Map<string, DirectoryUserLinkEntity>();

  private constructor(
    private readonly ledger: SyncLedgerRepository,
    private readonly identities: IdentitiesService,
    private readonly manager: EntityManager,
    private readonly connectionId: string,
    /** The links of the delivery's users as the pass has them (null: none); absent when read as they come. */
    private readonly links: Map<string, DirectoryUserLinkEntity | null> | undefined,
    /** By e-mail as sent; an entry goes when a write of the pass may have changed its answer. */
    private readonly owners: Map<string, EmailOwner>,
  ) {}

  /** Reads and writes as the events come, one statement each: the path of a delivery with a failing event. */
  static eventByEvent(
    ledger: SyncLedgerRepository,
    identities: IdentitiesService,
    manager: EntityManager,
    connectionId: string,
  ): DeliveryPass {
    return new DeliveryPass(ledger, identities, manager, connectionId, undefined, new Map());
  }

  /**
   * Reads, in one statement each, the links of the users of `events` (who must be locked) and the
   * owners of the e-mails of those without an identity yet, whom the adoption check will ask about.
   */
  static async prefetched(
    ledger: SyncLedgerRepository,
    identities: IdentitiesService,
    manager: EntityManager,
    connectionId: string,
    events: readonly DirectoryEvent[],
  ): Promise<DeliveryPass> {
    const userEvents = events.filter((event) => event.kind.startsWith('user.'));
    const links = new Map<string, DirectoryUserLinkEntity | null>(userEvents.map((event) => [event.userId!, null]));
    for (const link of await ledger.findUserLinks(manager, connectionId, [...links.keys()])) links.set(link.directoryUserId, link);
    const emails = new Set<string>();
    for (const event of userEvents) {
      const email = event.data['email'];
      if (
        event.kind !== 'user.deleted' &&
        typeof email === 'string' &&
        email !== '' &&
        (links.get(event.userId!)?.identityId ?? null) === null
      ) {
        emails.add(email);
      }
    }
    const found = emails.size === 0 ? new Map<string, string>() : await identities.idsByEmailWithin(manager, [...emails]);
    const linked = await ledger.linkedIdentities(manager, [...new Set(found.values())]);
    const owners = new Map<string, EmailOwner>();
    for (const email of emails) {
      const owner = found.get(email);
      owners.set(email, { owner, linked: owner !== undefined && linked.has(owner), normalized: normalizeIdentifier(email) });
    }
    return new DeliveryPass(ledger, identities, manager, connectionId, links, owners);
  }

  userLink(directoryUserId: string): Promise<DirectoryUserLinkEntity | null> {
    if (this.links?.has(directoryUserId) === true) return Promise.resolve(this.links.get(directoryUserId)!);
    return this.ledger.findUserLink(this.manager, this.connectionId, directoryUserId);
  }

  async saveUserLink(link: DirectoryUserLinkEntity): Promise<void> {
    if (this.links?.has(link.directoryUserId) === true) {
      this.links.set(link.directoryUserId, link);
      this.pending.set(link.directoryUserId, link);
      return;
    }
    await this.ledger.saveUserLinks(this.manager, [link]);
  }

  /** An identity owning `email` that no directory user is linked to yet: to be linked rather than duplicated. */
  async adoptable(email: unknown): Promise<string | null> {
    if (typeof email !== 'string' || email === '') return null;
    const known = this.owners.get(email);
    if (known !== undefined) return known.owner !== undefined && !known.linked ? known.owner : null;
    // isIdentityLinked reads every link: the pass's own must be stored first.
    await this.flush();
    const owner = await this.identities.idByEmailWithin(this.manager, email);
    if (owner === undefined || (await this.ledger.isIdentityLinked(this.manager, owner))) return null;
    return owner;
  }

  /**
   * Called before the pass writes an identity (`identityId` null: creates one) with `traits` (absent:
   * traits unchanged, or deleted). An e-mail's owner can change only when its owner is written (it
   * loses the e-mail, or is deleted), and its linked flag only when the owner is adopted or deleted,
   * which writes it too; a written identity can gain only e-mails among its traits' values, since
   * every login identifier and address is a trait value, normalized (see IdentitySchema). The answers
   * such a write may have changed are dropped: read again when asked.
   */
  writing(identityId: string | null, traits?: Readonly<Record<string, unknown>>): void {
    if (this.owners.size === 0) return;
    const values = traits === undefined ? undefined : normalizedValues(traits);
    for (const [email, entry] of this.owners) {
      const owned = identityId !== null && entry.owner === identityId;
      if (owned || (entry.normalized !== undefined && values?.has(entry.normalized) === true)) this.owners.delete(email);
    }
  }

  /** Stores the links the pass wrote (one statement). */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const links = [...this.pending.values()];
    this.pending.clear();
    await this.ledger.saveUserLinks(this.manager, links);
  }
}

/** Every string (normalized) and number (as text) in the traits: what an identifier or address made of them can be. */
function normalizedValues(traits: unknown, into = new Set<string>()): Set<string> {
  if (typeof traits === 'string') {
    const normalized = normalizeIdentifier(traits);
    if (normalized !== undefined) into.add(normalized);
  } else if (typeof traits === 'number') into.add(String(traits));
  else if (traits !== null && typeof traits === 'object') for (const value of Object.values(traits)) normalizedValues(value, into);
  return into;
}
