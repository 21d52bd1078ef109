import type { AuthenticationSession } from './authentication-session.js';
import type { DecisionPorts, OutboundAnswer } from './decision-ports.js';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorKind } from '../../common/errors/error-kind.js';
import { DecisionsError } from '../decisions.errors.js';
import { HandlerConfigError, Schemas } from './handler-config.js';
import { noConfig, type HandlerDefinition } from './handler.js';
import { unexpectedAnswer } from './outbound-answer.js';
import { template } from './templates.js';

interface AcpConfig {
  readonly base_url?: string;
  readonly required_action: string;
  readonly required_resource: string;
  readonly subject?: string;
  readonly flavor: string;
}

const FLAVORS = ['regex', 'glob', 'exact'];

/**
 * `keto_engine_acp_ory`: our ACP engine in process (or Keto's `/engines/acp/ory/<flavor>/allowed` at
 * a `base_url` elsewhere), with the action, resource and subject rendered from the session.
 */
const acp: HandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['required_action', 'required_resource'],
    properties: {
      base_url: Schemas.url,
      required_action: { type: 'string', minLength: 1 },
      required_resource: { type: 'string', minLength: 1 },
      subject: { type: 'string' },
      flavor: { type: 'string', default: 'regex' },
    },
  },
  reachesOtherHost: (config, isOwnUrl) => typeof config['base_url'] === 'string' && !isOwnUrl(config['base_url']),
  prepare: (raw, path) => {
    const config = raw as unknown as AcpConfig;
    const flavor = template(config.flavor, `${path}.flavor`);
    if (flavor.isConstant && !FLAVORS.includes(flavor.render({})))
      throw new HandlerConfigError(`${path}.flavor`, `must be one of ${FLAVORS.join(', ')}`);
    const action = template(config.required_action, `${path}.required_action`);
    const resource = template(config.required_resource, `${path}.required_resource`);
    const subject = config.subject === undefined ? undefined : template(config.subject, `${path}.subject`);
    return {
      run: async (request, session, ports) => {
        const input = {
          action: action.render(session),
          resource: resource.render(session),
          subject: subject === undefined ? session.Subject : subject.render(session),
          context: { remoteIpAddress: request.remoteAddress, requestedAt: new Date().toISOString() },
        };
        const chosen = flavor.render(session);
        if (config.base_url === undefined || ports.isOwnUrl(config.base_url)) {
          if (!FLAVORS.includes(chosen)) throw DecisionsError.forbidden();
          if (!(await ports.policyAllowed(chosen, input))) throw DecisionsError.forbidden();
          return;
        }
        const url = `${config.base_url.replace(/\/+$/, '')}/engines/acp/ory/${encodeURIComponent(chosen)}/allowed`;
        const answer = await outbound(() => ports.postJson(url, input, {}));
        if (answer.status === 403) throw DecisionsError.forbidden();
        if (answer.status !== 200) throw unexpectedAnswer(answer, 'The ACP engine');
        if ((parse(answer.body) as { allowed?: unknown } | null)?.allowed !== true) throw DecisionsError.forbidden();
      },
    };
  },
};

interface TupleConfig {
  readonly namespace: string;
  readonly object: string;
  readonly relation: string;
  readonly subject: string;
}

/**
 * `relation_tuple`, beyond Oathkeeper v0.37: a check against our relation tuples with templated
 * namespace, object, relation and subject (default: the authenticated subject). A tuple the
 * templates render malformed is a denial, never a 400 to the end user.
 */
const relationTuple: HandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['namespace', 'object', 'relation'],
    properties: {
      namespace: { type: 'string', minLength: 1 },
      object: { type: 'string', minLength: 1 },
      relation: { type: 'string', minLength: 1 },
      subject: { type: 'string', minLength: 1, default: '{{ print .Subject }}' },
    },
  },
  reachesOtherHost: () => false,
  prepare: (raw, path) => {
    const config = raw as unknown as TupleConfig;
    const namespace = template(config.namespace, `${path}.namespace`);
    const object = template(config.object, `${path}.object`);
    const relation = template(config.relation, `${path}.relation`);
    const subject = template(config.subject, `${path}.subject`);
    return {
      run: async (_request, session, ports) => {
        const rendered = [namespace, object, relation, subject].map((part) => part.render(session));
        if (rendered.some((part) => part === '')) throw DecisionsError.forbidden();
        let allowed: boolean;
        try {
          allowed = await ports.checkTuple(rendered[0]!, rendered[1]!, rendered[2]!, rendered[3]!);
        } catch (error) {
          if (error instanceof AppError && (error.kind === ErrorKind.BadRequest || error.kind === ErrorKind.NotFound))
            throw DecisionsError.forbidden();
          throw error;
        }
        if (!allowed) throw DecisionsError.forbidden();
      },
    };
  },
};

/** `remote_json`: the rendered `payload` (valid JSON) POSTed to `remote`; 200 allows, 403 forbids. */
const remoteJson: HandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['remote', 'payload'],
    properties: { remote: Schemas.url, payload: { type: 'string', minLength: 1 } },
  },
  reachesOtherHost: () => true,
  prepare: (raw, path) => {
    const remote = raw['remote'] as string;
    const payload = template(raw['payload'] as string, `${path}.payload`);
    return {
      run: async (_request, session: AuthenticationSession, ports: DecisionPorts) => {
        let body: unknown;
        try {
          body = JSON.parse(payload.render(session));
        } catch (error) {
          throw DecisionsError.failed('The remote_json payload did not render as JSON.', error);
        }
        const answer = await outbound(() => ports.postJson(remote, body, {}));
        if (answer.status === 403) throw DecisionsError.forbidden();
        if (answer.status !== 200) throw unexpectedAnswer(answer, 'The remote authorizer');
      },
    };
  },
};

async function outbound(call: () => Promise<OutboundAnswer>): Promise<OutboundAnswer> {
  try {
    return await call();
  } catch (error) {
    throw DecisionsError.unreachable('A remote authorizer did not answer.', error);
  }
}

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

export const AUTHORIZERS: Readonly<Record<string, HandlerDefinition>> = {
  allow: noConfig(() => undefined),
  deny: noConfig(() => {
    throw DecisionsError.forbidden();
  }),
  keto_engine_acp_ory: acp,
  relation_tuple: relationTuple,
  remote_json: remoteJson,
};
