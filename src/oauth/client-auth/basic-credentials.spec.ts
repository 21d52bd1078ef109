import { describe, expect, it } from 'vitest';
import { basicCredentials } from './basic-credentials.js';

const header = (raw: string): string => `Basic ${Buffer.from(raw, 'utf8').toString('base64')}`;

describe('basicCredentials', () => {
  it('reads id and secret', () => {
    expect(basicCredentials(header('client:secret'))).toEqual({ clientId: 'client', secret: 'secret' });
  });

  it('form-url-decodes both parts (RFC 6749 §2.3.1)', () => {
    const id = encodeURIComponent('my client:1').replace(/%20/g, '+');
    const secret = encodeURIComponent('p@ss:word/+%');
    expect(basicCredentials(header(`${id}:${secret}`))).toEqual({ clientId: 'my client:1', secret: 'p@ss:word/+%' });
  });

  it('splits at the first colon: the secret may hold raw colons', () => {
    expect(basicCredentials(header('client:a:b'))).toEqual({ clientId: 'client', secret: 'a:b' });
  });

  it('is case-insensitive on the scheme', () => {
    expect(basicCredentials(`basic ${Buffer.from('c:s').toString('base64')}`)).toEqual({ clientId: 'c', secret: 's' });
  });

  it('ignores an absent header and other schemes', () => {
    expect(basicCredentials(undefined)).toBeUndefined();
    expect(basicCredentials('Bearer abc')).toBeUndefined();
  });

  it('reports malformed Basic headers as null', () => {
    expect(basicCredentials('Basic')).toBeNull();
    expect(basicCredentials('Basic !!!')).toBeNull();
    expect(basicCredentials(header('no-colon'))).toBeNull();
    expect(basicCredentials(header(':secret'))).toBeNull();
    expect(basicCredentials(header('client:%E0%A4%A'))).toBeNull();
  });
});
