// Self-service scenarios (docs/self-service.md).
//
// "self-service: GET /sessions/whoami": a gateway asking who the session belongs to, with the same token over and
// over; answered from the in-process whoami cache (SESSION_CACHE_TTL) after the first request.
//
// "API password login": one complete API login per iteration (GET /self-service/login/api, then POST
// /self-service/login with the password method), in completed flows/s. Nearly all of its cost is the
// argon2id verification, so it is printed right after "argon2id verify (raw)": the same verification
// with the same parameters, run in the bench process on the same cores, in the same run. The login
// overhead is 1 - login/raw (target: at most 15%).
/* global fetch */
import { hash, verify } from '@node-rs/argon2';

// The service's argon2id parameters for this run (the defaults, set explicitly so both sides match).
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const ARGON2_ENV = {
  IDENTITY_ARGON2_MEMORY_KIB: String(ARGON2.memoryCost),
  IDENTITY_ARGON2_ITERATIONS: String(ARGON2.timeCost),
  IDENTITY_ARGON2_PARALLELISM: String(ARGON2.parallelism),
};
const PASSWORD = 'bench password that is long enough 1';
const LOGIN_CONCURRENCY = 8;

async function createIdentity(ctx, email) {
  await ctx.admin('POST', '/identities', { traits: { email }, credentials: { password: { config: { password: PASSWORD } } } });
}

async function apiLogin(baseUrl, email) {
  const init = await fetch(`${baseUrl}/self-service/login/api`);
  if (init.status !== 200) throw new Error(`GET /self-service/login/api answered ${init.status}`);
  const flow = await init.json();
  const submit = await fetch(`${baseUrl}/self-service/login?flow=${flow.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'password', password_identifier: email, password: PASSWORD }),
  });
  if (submit.status !== 200) throw new Error(`POST /self-service/login answered ${submit.status}: ${(await submit.text()).slice(0, 160)}`);
  return submit.json();
}

export const selfServiceScenarios = [
  {
    name: 'self-service: GET /sessions/whoami',
    listener: 'public',
    method: 'GET',
    path: '/sessions/whoami',
    env: ARGON2_ENV,
    target: 0.4,
    setup: async (ctx) => {
      await createIdentity(ctx, 'bench-whoami@example.com');
      const login = await apiLogin(ctx.urls.public, 'bench-whoami@example.com');
      return { headers: { 'x-session-token': login.session_token } };
    },
  },
  {
    name: 'self-service: argon2id verify (raw, bench process, same parameters)',
    listener: 'public',
    method: 'FLOW',
    concurrency: LOGIN_CONCURRENCY,
    setup: async () => {
      const hashed = await hash(PASSWORD, { algorithm: 2, ...ARGON2 });
      return {
        flow: async () => {
          if (!(await verify(hashed, PASSWORD))) throw new Error('argon2id verify failed');
        },
      };
    },
  },
  {
    name: 'self-service: API password login (init + submit)',
    listener: 'public',
    method: 'FLOW',
    concurrency: LOGIN_CONCURRENCY,
    env: ARGON2_ENV,
    setup: async (ctx) => {
      await createIdentity(ctx, 'bench-login@example.com');
      return { flow: () => apiLogin(ctx.urls.public, 'bench-login@example.com') };
    },
  },
];
