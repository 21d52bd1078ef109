import { createPrivateKey, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedEcCertificate } from './openssl.js';
import { createLocalJWKSet, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';

/** A JWK as the API returns it. */
export type Jwk = JWK & { kid: string; kty: string; alg: string };
export interface JwkSet {
  keys: Jwk[];
}

export const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const;

/** The public members of a JWK (what a verifier may have). */
export function publicPart(jwk: Jwk): Jwk {
  const copy: Record<string, unknown> = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return copy as Jwk;
}

export function hasPrivateMembers(jwk: object): boolean {
  return PRIVATE_MEMBERS.some((member) => member in jwk);
}

/** Signs a JWT with `signer` (a JWK with private members, as the admin API returns it). */
export async function signJwt(signer: Jwk, claims: Record<string, unknown> = { sub: 'subject' }): Promise<string> {
  const key = await importJWK(signer, signer.alg);
  return new SignJWT(claims).setProtectedHeader({ alg: signer.alg, kid: signer.kid }).setIssuedAt().setExpirationTime('5m').sign(key);
}

/** Verifies a JWT against a JWKS document, as a relying party would; returns the kid that verified it. */
export async function verifyWithJwks(token: string, jwks: JwkSet): Promise<string | undefined> {
  const { protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks));
  return protectedHeader.kid;
}

/** Verifies a JWT with one key (public part, or the secret for HMAC). */
export async function verifyWithKey(token: string, jwk: Jwk): Promise<void> {
  await jwtVerify(token, await importJWK(jwk, jwk.alg));
}

/** An RSA key of any size, made with node:crypto (jose refuses to generate weak ones). */
export function rsaJwk(bits: number, alg = 'RS256', kid: string = randomUUID()): Jwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid, alg, use: 'sig' } as Jwk;
}

export function ecJwk(crv: 'P-256' | 'P-384' | 'P-521' = 'P-256', alg = 'ES256', kid: string = randomUUID()): Jwk {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: crv });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid, alg, use: 'sig' } as Jwk;
}

export function octJwk(bytes = 32, alg = 'HS256', kid: string = randomUUID()): Jwk {
  return { kty: 'oct', k: randomBytes(bytes).toString('base64url'), kid, alg, use: 'sig' };
}

/** An EC P-256 key with a self-signed certificate in `x5c`, made by the openssl CLI. */
export async function ecJwkWithCertificate(kid: string = randomUUID()): Promise<Jwk> {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-x5c-'));
  try {
    const { keyFile, certFile } = selfSignedEcCertificate(dir, '/CN=latchkey-test');
    const certificate = (await readFile(certFile, 'utf8')).replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const jwk = createPrivateKey(await readFile(keyFile, 'utf8')).export({ format: 'jwk' }) as JWK;
    return { ...jwk, kid, alg: 'ES256', use: 'sig', x5c: [certificate] } as Jwk;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
