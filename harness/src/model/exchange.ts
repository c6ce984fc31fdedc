/**
 * The model's exchanges with the target: a command's request built with the step machinery (runner/request.ts, the
 * credentials each command draws), recorded for the report, sent, and judged against the model's expectation.
 */
import type { AuthScheme } from '../auth/authenticator.js';
import type { Mutation } from '../auth/mutations.js';
import type { HttpResponse } from '../http/client.js';
import { oauth2Actors } from '../profile/oauth2-actors.js';
import type { OAuth2Actor, ResolvedProfile } from '../profile/schema.js';
import type { CheckName, ExpectData, StepData } from '../suite/schema.js';
import type { ExecDeps, RawExchange } from '../runner/exec-types.js';
import { checkResponseByCheck } from '../runner/expect.js';
import type { BuiltRequest } from '../runner/instances.js';
import { render } from '../runner/render.js';
import { buildRequest } from '../runner/request.js';
import { originsOf } from '../runner/step-checks.js';
import { type Cred, type Expectation, type Op, type Paths } from './articles.js';

/** The target broke the model: the messages and the rules the failing checks are charged to. */
export class ModelFailure extends Error {
  constructor(
    readonly messages: string[],
    readonly rules: string[],
  ) {
    super(messages.join('; '));
  }
}

/** The request could not be made or answered (transport, credentials the harness cannot build): errored. */
export class ModelError extends Error {}

/** What the commands act on: the target, and the record of what this sequence sent. */
export interface Real {
  deps: ExecDeps;
  paths: Paths;
  transcript: RawExchange[];
  requests: number;
  /** Of `requests`, those that obtained OAuth credentials. */
  credentialRequests: number;
  /** The sequence as sent, one line per command with its answer: the readable counterexample. */
  lines: string[];
  maxTranscript: number;
}

/** A wrong credential: the first character replaced (applyMutation guarantees the result differs). */
const WRONG: Mutation = { kind: 'replace', index: 0, char: 'x' };

const MUTATION_KEY: Record<string, 'passwordMutation' | 'digestMutation' | 'tokenMutation'> = {
  basic: 'passwordMutation',
  hmac: 'digestMutation',
  'hmac-nonce': 'digestMutation',
  oauth1: 'digestMutation',
  oauth2: 'tokenMutation',
};

/**
 * Credentials as a step's `auth`: valid ones with the op's scheme (each of the profile's usable schemes is drawn;
 * none drawn: as the profile's policy says), none, or wrong ones — the secret, digest or token mutated.
 */
function authOf(op: Extract<Op, { cred: Cred }>): NonNullable<StepData['request']>['auth'] {
  if (op.cred === 'missing') return 'none';
  if (op.scheme === undefined) return 'auto';
  // An OAuth 2 actor (arbitraries.ts): its own token, of its grant; {{ actor }} is found in the profile.
  if (op.scheme.startsWith('oauth2:'))
    return op.cred === 'valid'
      ? { scheme: 'oauth2', actor: '{{ actor }}' }
      : { scheme: 'oauth2', actor: '{{ actor }}', tokenMutation: '{{ wrong }}' };
  const scheme = op.scheme as AuthScheme;
  if (op.cred === 'valid') return { scheme };
  return { scheme, [MUTATION_KEY[scheme] ?? 'digestMutation']: '{{ wrong }}' };
}

export const METHOD = { put: 'PUT', post: 'POST', get: 'GET', delete: 'DELETE', options: 'OPTIONS' } as const;

export async function build(op: Op, path: string, real: Real): Promise<BuiltRequest> {
  const body = op.op === 'put' || op.op === 'post' ? { body: { article: '{{ article }}' } } : {};
  const auth = 'cred' in op ? authOf(op) : 'auto';
  const step: StepData = { request: { method: METHOD[op.op], path, ...body, auth } };
  const built = await buildRequest(
    step,
    { article: 'article' in op ? op.article : undefined, wrong: WRONG, actor: actorOf(op, real.deps.profile) },
    real.deps,
  );
  for (const x of built.obtained ?? []) {
    real.credentialRequests++;
    record(real, x);
  }
  if ('error' in built) throw new ModelError(built.error);
  return built;
}

export function record(real: Real, x: Omit<RawExchange, 'step'>): RawExchange {
  const exchange: RawExchange = { step: real.lines.length + 1, ...x };
  real.requests++;
  // The cap is on the commands' own exchanges; those that obtained credentials are always kept (see execute.ts).
  if (exchange.purpose === 'credentials' || real.transcript.length - real.credentialRequests < real.maxTranscript)
    real.transcript.push(exchange);
  return exchange;
}

export async function send(real: Real, built: BuiltRequest, concurrent = false): Promise<HttpResponse> {
  const sent = await real.deps.client.send(built.request, concurrent ? { concurrent: true } : undefined);
  const exchange = record(real, {
    request: built.request,
    ...(built.credential ? { credential: built.credential } : {}),
  });
  if (!sent.ok) {
    exchange.error = sent.error;
    throw new ModelError(`${built.request.method} ${new URL(built.request.url).pathname}: ${sent.error.message}`);
  }
  exchange.response = sent.response;
  return sent.response;
}

/**
 * The checks of an expectation as a step's `expect`, with the rule each failing check is charged to. `state` only:
 * the status, refusal and body, which say what state the answer saw or made (linearizability is judged on these;
 * the Location of a 201 then in the order found).
 */
export function judge(
  res: HttpResponse,
  e: Expectation,
  built: BuiltRequest,
  real: Real,
  stateOnly = false,
): Array<{ message: string; rule: string }> {
  const exp: ExpectData = {
    ...(e.status ? { status: e.status } : {}),
    ...(e.refused ? { refused: {} } : {}),
    ...(e.location?.kind === 'put' && !stateOnly ? { location: { path: e.location.paths, sameOrigin: false } } : {}),
    ...(e.location?.kind === 'post' && !stateOnly ? { location: { sameOrigin: false } } : {}),
    ...(e.article ? { article: '{{ expected }}' } : {}),
    ...(e.allow ? { allow: { includes: e.allow } } : {}),
  };
  const { profile } = real.deps;
  const scope = { expected: e.article };
  const found = checkResponseByCheck(res, exp, {
    requestUrl: built.request.url,
    baseUrl: built.base,
    origins: originsOf(real.deps),
    optionalFields: profile.articles.optionalFields,
    textNormalization: profile.articles.textNormalization,
    ...(profile.auth.refusalStatus ? { refusalStatus: profile.auth.refusalStatus } : {}),
    render: (t) => render(t, scope),
  });
  const ruleOf = (check: CheckName): string =>
    check === 'location'
      ? (e.rules.location ?? e.rules.status)
      : check === 'article'
        ? (e.rules.article ?? e.rules.status)
        : check === 'allow'
          ? (e.rules.allow ?? e.rules.status)
          : e.rules.status;
  return found.map((f) => ({ message: f.message, rule: ruleOf(f.check) }));
}

export const fail = (where: string, found: Array<{ message: string; rule: string }>): never => {
  throw new ModelFailure(
    [...new Set(found.map((f) => `${where}: ${f.message}`))],
    [...new Set(found.map((f) => f.rule))],
  );
};

/** The OAuth 2 actor an op's `oauth2:<clientId>:<grant>` scheme names, or undefined. */
function actorOf(op: Op, profile: ResolvedProfile): OAuth2Actor | undefined {
  const scheme = 'scheme' in op ? op.scheme : undefined;
  if (scheme === undefined || !scheme.startsWith('oauth2:')) return undefined;
  const [, clientId, grant] = scheme.split(':');
  return oauth2Actors(profile).find((a) => a.clientId === clientId && a.grant === grant && a.user !== undefined);
}
