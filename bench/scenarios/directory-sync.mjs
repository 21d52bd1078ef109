// Directory sync (docs/directory-sync.md): how fast a directory's batch of 50 `user.created` events is
// applied, per event, next to creating the same 50 identities through `POST /identities` (issue 19:
// the batch path at least as fast per event as the admin API). One flow of the scenario is one signed
// delivery of 50 events, signed as the sender signs (HMAC-SHA256 over `t + "." + body`, t in ms);
// one flow of the baseline is 50 `POST /identities`, one after the other. Both create 50 identities
// with the built-in schema and fresh e-mails, so the ratio of their flows/s is the ratio per event.
import { createHmac, randomBytes } from 'node:crypto';
import { withConnection } from '../lean-http.mjs';

const BATCH = 50;
// Deliveries of one connection apply WEBHOOKS_CONCURRENCY (4) at a time; a few more keep it busy.
const CONCURRENCY = 8;

function batch(run, sequence) {
  return Array.from({ length: BATCH }, (_, index) => {
    const id = `${run}-${sequence}-${index}`;
    return {
      directory_id: 'bench-directory',
      event: 'user.created',
      tenant: 'bench',
      product: 'latchkey',
      data: {
        id,
        first_name: 'Bench',
        last_name: `User ${index}`,
        email: `dsync-${id}@example.com`,
        active: true,
        raw: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `dsync-${id}@example.com`, id },
      },
    };
  });
}

/** POST through the lean client (the same one the baseline uses), throwing on a non-2xx answer. */
function post(baseUrl, path, headers, body) {
  return withConnection(baseUrl, async (connection) => {
    const response = await connection.request('POST', path, body, headers);
    if (response.status >= 300) throw new Error(`POST ${path} answered ${response.status} ${response.text.slice(0, 200)}`);
    return response.text;
  });
}

export const directorySyncScenarios = [
  {
    name: 'directory-sync: batch of 50 user.created (per event vs POST /identities)',
    listener: 'public',
    method: 'FLOW',
    concurrency: CONCURRENCY,
    target: 1,
    // The baseline's creates run 8 at a time: the enforced inflight rule on POST /admin/identities would
    // refuse all but one (429), as for the identities scenarios. Set here too, so a filtered run has it.
    env: { RATE_LIMIT_INFLIGHT: 'off' },
    baseline: {
      name: '50 × POST /identities (admin API)',
      setup: async (ctx) => {
        const run = randomBytes(6).toString('hex');
        let sequence = 0;
        const headers = ctx.adminHeaders;
        return {
          flow: async () => {
            // This flow's own number: the others move `sequence` on while it awaits.
            sequence += 1;
            const flow = sequence;
            for (let index = 0; index < BATCH; index += 1) {
              const email = `admin-${run}-${flow}-${index}@example.com`;
              await post(
                ctx.urls.admin,
                '/identities',
                headers,
                JSON.stringify({ traits: { email, name: { first: 'Bench', last: `User ${index}` } } }),
              );
            }
          },
        };
      },
    },
    setup: async (ctx) => {
      const connection = await ctx.admin('POST', '/directory-sync/connections', { name: 'bench' });
      if (typeof connection?.secret !== 'string') throw new Error('POST /directory-sync/connections returned no secret');
      const run = randomBytes(6).toString('hex');
      let sequence = 0;
      return {
        flow: async () => {
          sequence += 1;
          const body = JSON.stringify(batch(run, sequence));
          const t = Date.now();
          const signature = createHmac('sha256', connection.secret).update(`${t}.${body}`).digest('hex');
          const summary = JSON.parse(
            await post(
              ctx.urls.public,
              `/webhooks/directory-sync/${connection.id}`,
              { 'service-signature': `t=${t},s=${signature}` },
              body,
            ),
          );
          if (summary.applied !== BATCH) throw new Error(`applied ${summary.applied} of ${BATCH}: ${JSON.stringify(summary)}`);
        },
      };
    },
  },
];
