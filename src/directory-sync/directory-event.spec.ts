import { describe, expect, it } from 'vitest';
import { parseDelivery } from './directory-event.js';

const envelope = (event: string, data: unknown) => ({ directory_id: 'dir', event, tenant: 'acme', product: 'latchkey', data });
const user = { id: 'u1', first_name: 'Ada', last_name: 'L', email: 'ada@example.com', active: true, raw: {} };
const group = { id: 'g1', name: 'Engineering', raw: {} };
const parse = (value: unknown) => parseDelivery(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)));

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('parseDelivery', () => {
  it('reads one event or a batch, with the user and group each kind is about', () => {
    const [created] = parse(envelope('user.created', user));
    expect(created).toMatchObject({ kind: 'user.created', directoryId: 'dir', userId: 'u1', group: undefined });
    const batch = parse([envelope('group.created', group), envelope('group.user_added', { ...user, group })]);
    expect(batch.map((event) => [event.kind, event.userId, event.group?.id])).toEqual([
      ['group.created', undefined, 'g1'],
      ['group.user_added', 'u1', 'g1'],
    ]);
  });

  it('accepts members beyond the documented ones, and a group without a name', () => {
    expect(parse(envelope('user.updated', { ...user, roles: ['admin'], locale: 'en' }))[0]!.data['roles']).toEqual(['admin']);
    expect(parse(envelope('group.deleted', { id: 'g1' }))[0]!.group).toEqual({ id: 'g1', name: '' });
  });

  it.each([
    ['not JSON', '{'],
    ['an empty batch', []],
    ['a scalar', 42],
    ['an unknown kind', envelope('user.exploded', user)],
    ['a missing data', { ...envelope('user.created', user), data: undefined }],
    ['a user without id', envelope('user.created', { email: 'a@example.com' })],
    ['an empty user id', envelope('user.created', { ...user, id: '' })],
    ['a non-boolean active', envelope('user.created', { ...user, active: 'false' })],
    ['a non-string email', envelope('user.created', { ...user, email: ['a@example.com'] })],
    ['a raw that is not an object', envelope('user.created', { ...user, raw: 'x' })],
    ['a membership without group', envelope('group.user_added', user)],
    ['a group id longer than a tuple object', envelope('group.created', { id: 'g'.repeat(65) })],
    ['a control character', envelope('user.created', { ...user, id: 'u\u0000' })],
    ['a numeric directory id', { ...envelope('user.created', user), directory_id: 7 }],
    ['one bad event of a batch', [envelope('user.created', user), envelope('user.created', {})]],
    ['too many events', Array.from({ length: 1001 }, () => envelope('user.created', user))],
  ])('refuses %s with malformed_envelope', (_name, value) => {
    expect(codeOf(() => parse(value))).toBe('malformed_envelope');
  });
});
