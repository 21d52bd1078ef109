import { DirectorySyncError } from './directory-sync.errors.js';

/** The event kinds a directory-sync service sends. */
export const EVENT_KINDS = [
  'user.created',
  'user.updated',
  'user.deleted',
  'group.created',
  'group.updated',
  'group.deleted',
  'group.user_added',
  'group.user_removed',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

/** A directory group as events carry it (`data`, or `data.group` of a membership event). */
export interface DirectoryGroup {
  readonly id: string;
  readonly name: string;
}

/** One event of a delivery, checked. `data` is kept whole: the traits mapping reads any field of it. */
export interface DirectoryEvent {
  readonly kind: EventKind;
  readonly directoryId: string;
  readonly tenant: string;
  readonly product: string;
  readonly data: Readonly<Record<string, unknown>>;
  /** User and membership events: the directory user id (`data.id`). */
  readonly userId: string | undefined;
  /** Group events: `data`; membership events: `data.group`. */
  readonly group: DirectoryGroup | undefined;
}

/** The most events one delivery may carry (the sender batches 50 by default). */
export const MAX_EVENTS_PER_DELIVERY = 1000;
/** Directory user ids are stored up to this length. */
const MAX_USER_ID_LENGTH = 255;
/** Group ids become relation-tuple objects, which are at most this long. */
const MAX_GROUP_ID_LENGTH = 64;
const MAX_FIELD_LENGTH = 1024;
const PRINTABLE = /^[^\p{Cc}\p{Cs}]+$/u;

/**
 * Parses a delivery's raw body: one event object or a non-empty array of them. Every event is checked
 * before any is applied, so a malformed one refuses the whole delivery (400 `malformed_envelope`).
 */
export function parseDelivery(body: Buffer): DirectoryEvent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw DirectorySyncError.malformedEnvelope('body', 'is not JSON.');
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) throw DirectorySyncError.malformedEnvelope('body', 'holds no event.');
    if (parsed.length > MAX_EVENTS_PER_DELIVERY) {
      throw DirectorySyncError.malformedEnvelope('body', `holds more than ${MAX_EVENTS_PER_DELIVERY} events.`);
    }
    return parsed.map((entry, index) => parseEvent(entry, `[${index}]`));
  }
  return [parseEvent(parsed, '')];
}

function parseEvent(value: unknown, at: string): DirectoryEvent {
  const event = object(value, at === '' ? 'body' : at);
  const path = (name: string): string => (at === '' ? name : `${at}.${name}`);
  const kind = event['event'];
  if (typeof kind !== 'string' || !(EVENT_KINDS as readonly string[]).includes(kind)) {
    throw DirectorySyncError.malformedEnvelope(path('event'), `must be one of ${EVENT_KINDS.join(', ')}.`);
  }
  const data = object(event['data'], path('data'));
  const parsed = {
    kind: kind as EventKind,
    directoryId: text(event['directory_id'], path('directory_id'), MAX_FIELD_LENGTH, false),
    tenant: text(event['tenant'], path('tenant'), MAX_FIELD_LENGTH, true),
    product: text(event['product'], path('product'), MAX_FIELD_LENGTH, true),
    data,
  };
  if (kind.startsWith('group.') && kind !== 'group.user_added' && kind !== 'group.user_removed') {
    return { ...parsed, userId: undefined, group: groupOf(data, path('data')) };
  }
  const userId = text(data['id'], path('data.id'), MAX_USER_ID_LENGTH, false);
  checkUserFields(data, path('data'));
  const group =
    kind === 'group.user_added' || kind === 'group.user_removed'
      ? groupOf(object(data['group'], path('data.group')), path('data.group'))
      : undefined;
  return { ...parsed, userId, group };
}

function groupOf(data: Record<string, unknown>, at: string): DirectoryGroup {
  const id = text(data['id'], `${at}.id`, MAX_GROUP_ID_LENGTH, false);
  const name = data['name'] === undefined || data['name'] === null ? '' : text(data['name'], `${at}.name`, MAX_FIELD_LENGTH, true);
  return { id, name };
}

/** The user fields the sender documents, when present, have their documented types. */
function checkUserFields(data: Record<string, unknown>, at: string): void {
  for (const name of ['first_name', 'last_name', 'email']) {
    const value = data[name];
    if (value !== undefined && value !== null) text(value, `${at}.${name}`, MAX_FIELD_LENGTH, true);
  }
  const active = data['active'];
  if (active !== undefined && active !== null && typeof active !== 'boolean') {
    throw DirectorySyncError.malformedEnvelope(`${at}.active`, 'must be a boolean.');
  }
  const raw = data['raw'];
  if (raw !== undefined && raw !== null) object(raw, `${at}.raw`);
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw DirectorySyncError.malformedEnvelope(at, 'must be an object.');
  return value as Record<string, unknown>;
}

function text(value: unknown, at: string, maxLength: number, emptyAllowed: boolean): string {
  if (typeof value !== 'string') throw DirectorySyncError.malformedEnvelope(at, 'must be a string.');
  if (value === '') {
    if (emptyAllowed) return value;
    throw DirectorySyncError.malformedEnvelope(at, 'must not be empty.');
  }
  if (value.length > maxLength) throw DirectorySyncError.malformedEnvelope(at, `must be at most ${maxLength} characters.`);
  if (!PRINTABLE.test(value)) throw DirectorySyncError.malformedEnvelope(at, 'must not hold control characters.');
  return value;
}
