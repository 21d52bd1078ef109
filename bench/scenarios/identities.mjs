// Identity store scenarios (docs/identities.md): reading one identity by id (a primary-key lookup plus
// its two address lists), and creating identities with the built-in email schema (Ajv validation, one
// transaction: identity, identifier, two addresses). Each POST carries a fresh e-mail so that no
// request hits the unique indexes; no credentials are imported, so no argon2 hashing is measured.
import { randomBytes } from 'node:crypto';

export const identityScenarios = [
  {
    name: 'GET /identities/{id}',
    listener: 'admin',
    method: 'GET',
    setup: async (ctx) => {
      const identity = await ctx.admin('POST', '/identities', {
        traits: { email: `bench-get-${randomBytes(6).toString('hex')}@example.com` },
      });
      if (typeof identity?.id !== 'string') throw new Error('POST /identities returned no id');
      return { path: `/identities/${identity.id}`, headers: ctx.adminHeaders };
    },
  },
  {
    name: 'POST /identities',
    listener: 'admin',
    method: 'POST',
    path: '/identities',
    // The enforced inflight rule on POST /admin/identities lets one create of a project run at a time
    // (docs/rate-limits.md): with it on, 50 connections would measure 429s. This measures creation.
    env: { RATE_LIMIT_INFLIGHT: 'off' },
    setup: async (ctx) => {
      const run = randomBytes(6).toString('hex');
      let sequence = 0;
      const headers = { ...ctx.adminHeaders, 'content-type': 'application/json' };
      const body = () => {
        sequence += 1;
        return JSON.stringify({ traits: { email: `bench-${run}-${sequence}@example.com` } });
      };
      return {
        path: '/identities',
        headers,
        body: body(),
        // autocannon calls setupRequest before every request: a new e-mail each time.
        requests: [{ method: 'POST', path: '/identities', headers, setupRequest: (request) => ({ ...request, body: body() }) }],
      };
    },
  },
];
