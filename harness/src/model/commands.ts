/**
 * The IO shell of model-based testing: fast-check commands that send one request each (or a few at once), judge the
 * answer with the pure model (model/articles.ts) and the step checks (runner/expect.ts), and update the model.
 */
import fc from 'fast-check';
import type { AuthScheme } from '../auth/authenticator.js';
import type { Mutation } from '../auth/mutations.js';
import type { ArticleValue } from '../generators/article.js';
import type { HttpResponse } from '../http/client.js';
import type { CheckName, ExpectData, StepData } from '../spec/schema.js';
import type { ModelOptions } from '../spec/model-schema.js';
import { usableSchemes } from '../runner/credentials.js';
import type { ExecDeps, RawExchange } from '../runner/exec-types.js';
import { checkResponseByCheck, headerValue, locationPath } from '../runner/expect.js';
import type { BuiltRequest } from '../runner/instances.js';
import { render } from '../runner/render.js';
import { buildRequest } from '../runner/request.js';
import { originsOf } from '../runner/step-checks.js';
import {
  afterPost,
  canonicalOf,
  describeOp,
  expectationOf,
  linearizations,
  pathIn,
  resolve,
  RULES,
  type Cred,
  type Expectation,
  type ModelState,
  type Op,
  type Paths,
  type Target,
} from './articles.js';

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
  const scheme = op.scheme as AuthScheme;
  if (op.cred === 'valid') return { scheme };
  return { scheme, [MUTATION_KEY[scheme] ?? 'digestMutation']: '{{ wrong }}' };
}

const METHOD = { put: 'PUT', post: 'POST', get: 'GET', delete: 'DELETE', options: 'OPTIONS' } as const;

async function build(op: Op, path: string, real: Real): Promise<BuiltRequest> {
  const body = op.op === 'put' || op.op === 'post' ? { body: { article: '{{ article }}' } } : {};
  const auth = 'cred' in op ? authOf(op) : 'auto';
  const step: StepData = { request: { method: METHOD[op.op], path, ...body, auth } };
  const built = await buildRequest(step, { article: 'article' in op ? op.article : undefined, wrong: WRONG }, real.deps);
  for (const x of built.obtained ?? []) {
    real.credentialRequests++;
    record(real, x);
  }
  if ('error' in built) throw new ModelError(built.error);
  return built;
}

function record(real: Real, x: Omit<RawExchange, 'step'>): RawExchange {
  const exchange: RawExchange = { step: real.lines.length + 1, ...x };
  real.requests++;
  // The cap is on the commands' own exchanges; those that obtained credentials are always kept (see execute.ts).
  if (exchange.purpose === 'credentials' || real.transcript.length - real.credentialRequests < real.maxTranscript) real.transcript.push(exchange);
  return exchange;
}

async function send(real: Real, built: BuiltRequest, concurrent = false): Promise<HttpResponse> {
  const sent = await real.deps.client.send(built.request, concurrent ? { concurrent: true } : undefined);
  const exchange = record(real, { request: built.request });
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
function judge(res: HttpResponse, e: Expectation, built: BuiltRequest, real: Real, stateOnly = false): Array<{ message: string; rule: string }> {
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
    ...(profile.auth.refusalStatus ? { refusalStatus: profile.auth.refusalStatus } : {}),
    render: (t) => render(t, scope),
  });
  const ruleOf = (check: CheckName): string =>
    check === 'location' ? (e.rules.location ?? e.rules.status) : check === 'article' ? (e.rules.article ?? e.rules.status) : check === 'allow' ? (e.rules.allow ?? e.rules.status) : e.rules.status;
  return found.map((f) => ({ message: f.message, rule: ruleOf(f.check) }));
}

const fail = (where: string, found: Array<{ message: string; rule: string }>): never => {
  throw new ModelFailure(
    [...new Set(found.map((f) => `${where}: ${f.message}`))],
    [...new Set(found.map((f) => f.rule))],
  );
};

/** One request of the model, checked against the model's expectation. */
class OpCommand implements fc.AsyncCommand<ModelState, Real, true> {
  constructor(
    readonly op: Op,
    private readonly allowed: (op: Op) => boolean,
  ) {}

  check(): Promise<boolean> {
    return Promise.resolve(this.allowed(this.op));
  }

  async run(m: ModelState, real: Real): Promise<void> {
    const e = expectationOf(this.op, m, real.paths, real.deps.profile);
    const canonical = this.op.op === 'post' ? undefined : resolve(m, real.paths, this.op.target);
    const path = this.op.op === 'post' ? real.deps.profile.articles.collection : canonical !== undefined ? pathIn(real.paths, canonical, this.op.form) : undefined;
    if (e === undefined || path === undefined) return; // the profile leaves this request's answer open: not sent
    const built = await build(this.op, path, real);
    const res = await send(real, built);
    real.lines.push(`${describeOp(this.op, path)} → ${res.status}`);
    const where = `command ${real.lines.length} (${METHOD[this.op.op]} ${path})`;
    const found = judge(res, e, built, real);
    if (found.length > 0) fail(where, this.op.op === 'get' && canonical !== undefined ? await chargeRead(m, real, canonical, found) : found);
    let next = e.next;
    let written = canonical;
    if (e.location?.kind === 'post' && this.op.op === 'post') {
      const at = locationPath(headerValue(res, 'location') ?? '', built.request.url, built.base, originsOf(real.deps));
      if ('problem' in at) fail(where, [{ message: at.problem, rule: RULES.post }]);
      else {
        written = canonicalOf(real.paths, at.path);
        const after = afterPost(m, written, this.op.article);
        if ('problem' in after) fail(where, [{ message: after.problem, rule: after.rule }]);
        else next = after.next;
      }
    }
    Object.assign(m, next);
    if (written !== undefined && this.op.op !== 'get' && this.op.op !== 'options') await readBack(m, real, written, 'form' in this.op ? this.op.form : 0);
  }

  toString(): string {
    return describeOp(this.op, undefined);
  }
}

/**
 * After a write (answered or refused), the URL is read back once, through the next of its forms after the one
 * written through (the alias after the item path, the item path after the last alias): what a write did, or wrongly
 * did despite a refusal, shows at once, and so does an alias that diverged from its article. One read, not one per
 * form: the requests go to sequences instead (more of them find more), and the GET commands read every form too.
 */
async function readBack(m: ModelState, real: Real, canonical: string, writtenForm: number): Promise<void> {
  const { profile } = real.deps;
  if (!profile.articles.readable) return;
  const seen: string[] = [];
  const forms = real.paths.aliases.length + 1;
  for (const form of [(writtenForm + 1) % forms]) {
    const path = pathIn(real.paths, canonical, form);
    if (path === undefined) continue;
    const op: Op = { op: 'get', target: targetOf(real.paths, canonical, m), form };
    const e = expectationOf(op, m, real.paths, profile);
    if (e === undefined) continue;
    const built = await build(op, path, real);
    const res = await send(real, built);
    seen.push(`GET ${path} → ${res.status}`);
    const found = judge(res, e, built, real);
    if (found.length > 0) {
      real.lines[real.lines.length - 1] += `; read back: ${seen.join(', ')}`;
      fail(`command ${real.lines.length}, read back (GET ${path})`, await chargeRead(m, real, canonical, found));
    }
  }
}

/**
 * A read through another form than the last write's that disagrees is charged to the alias rule only when the form
 * written through reads right; when it reads wrong too, the write itself was wrong, and its rule is charged.
 */
async function chargeRead(m: ModelState, real: Real, canonical: string, found: Array<{ message: string; rule: string }>): Promise<Array<{ message: string; rule: string }>> {
  const last = m.lastWrite.get(canonical);
  if (last === undefined || !found.some((f) => f.rule === RULES.alias)) return found;
  const path = pathIn(real.paths, canonical, last.form);
  const op: Op = { op: 'get', target: targetOf(real.paths, canonical, m), form: last.form };
  const e = path === undefined ? undefined : expectationOf(op, m, real.paths, real.deps.profile);
  if (e === undefined || path === undefined) return found;
  const built = await build(op, path, real);
  const again = judge(await send(real, built), e, built, real);
  if (again.length === 0) return aliasRules(found);
  return found.map((f) => (f.rule === RULES.alias ? { message: `${f.message} (and the same through ${path}, the form written through)`, rule: last.rule } : f));
}

/**
 * The rules a diverged alias breaks: the alias's own (§2), and — the profile declaring it a form of the same
 * resource — §4.1 rule 1, since the resource was not replaced at every URL it has.
 */
function aliasRules(found: Array<{ message: string; rule: string }>): Array<{ message: string; rule: string }> {
  return found.flatMap((f) => (f.rule === RULES.alias ? [f, { message: f.message, rule: RULES.replaced }] : [f]));
}

/**
 * Requests sent at once (each on its own connection). Every answer, and the state GETs read right after, must be
 * explained by some order of the requests applied one at a time (linearizability): a write acknowledged and then
 * lost, a read of a half-written article, fail.
 */
class ConcurrentCommand implements fc.AsyncCommand<ModelState, Real, true> {
  constructor(
    readonly ops: Op[],
    private readonly allowed: (op: Op) => boolean,
  ) {}

  check(): Promise<boolean> {
    return Promise.resolve(this.ops.every(this.allowed));
  }

  async run(m: ModelState, real: Real): Promise<void> {
    const { profile } = real.deps;
    const targets = this.ops.map((op) => ('target' in op ? resolve(m, real.paths, op.target) : undefined));
    if (targets.some((t) => t === undefined)) return;
    const paths = this.ops.map((op, i) => pathIn(real.paths, targets[i]!, 'form' in op ? op.form : 0));
    if (paths.some((p) => p === undefined)) return;
    const built: BuiltRequest[] = [];
    for (const [i, op] of this.ops.entries()) built.push(await build(op, paths[i]!, real));
    const answers = await Promise.all(built.map((b) => send(real, b, true)));
    const touched = [...new Set(targets as string[])];
    const reads: HttpResponse[] = [];
    const readBuilt: BuiltRequest[] = [];
    for (const canonical of touched) {
      const b = await build({ op: 'get', target: { kind: 'slug', n: 0 }, form: 0 }, canonical, real);
      readBuilt.push(b);
      reads.push(await send(real, b));
    }
    const ok = (res: HttpResponse, e: Expectation | undefined, b: BuiltRequest) => e !== undefined && judge(res, e, b, real, true).length === 0;
    const explained = linearizations<ModelState>(
      m,
      this.ops.map((op, i) => (s: ModelState) => {
        const e = expectationOf(op, s, real.paths, profile);
        return ok(answers[i]!, e, built[i]!) ? e!.next : undefined;
      }),
      (s) => touched.every((canonical, k) => ok(reads[k]!, expectationOf({ op: 'get', target: targetOf(real.paths, canonical, s), form: 0 }, s, real.paths, profile), readBuilt[k]!)),
    );
    const sent = this.ops.map((op, i) => `${describeOp(op, paths[i])} → ${answers[i]!.status}`);
    real.lines.push(`at once: ${sent.join(' ‖ ')}; then ${touched.map((p, k) => `GET ${p} → ${reads[k]!.status}`).join(', ')}`);
    if (explained.length === 0) {
      // A request whose answer is wrong in every order, whatever the others answered, is wrong on its own: its own
      // checks and rules say why. Otherwise it is the interleaving that no order explains.
      for (const [i, op] of this.ops.entries()) {
        const alone = linearizations<ModelState>(
          m,
          this.ops.map((other, j) => (s: ModelState) => {
            const e = expectationOf(other, s, real.paths, profile);
            if (e === undefined) return undefined;
            return j !== i || ok(answers[i]!, e, built[i]!) ? e.next : undefined;
          }),
        );
        if (alone.length === 0) {
          const e = expectationOf(op, m, real.paths, profile)!;
          fail(`command ${real.lines.length} (${METHOD[op.op]} ${paths[i]}, request ${i + 1} of ${this.ops.length} sent at once)`, judge(answers[i]!, e, built[i]!, real));
        }
      }
      const rules: string[] = [];
      for (const [i, op] of this.ops.entries()) {
        if (op.op === 'delete') rules.push(RULES.delete);
        else if (op.op === 'put') rules.push(m.articles.has(targets[i]!) ? RULES.replaced : RULES.created);
      }
      throw new ModelFailure(
        [`command ${real.lines.length}: no order of the ${this.ops.length} concurrent requests, applied one at a time, explains their answers and the state read right after (${sent.join('; ')})`],
        [...new Set(rules.length > 0 ? rules : [RULES.replaced])],
      );
    }
    // In the order found, each answer must also pass the checks that do not bear on the state (a 201's Location).
    let state = m;
    for (const i of explained[0]!.order) {
      const e = expectationOf(this.ops[i]!, state, real.paths, profile)!;
      const found = judge(answers[i]!, e, built[i]!, real);
      if (found.length > 0) fail(`command ${real.lines.length} (${METHOD[this.ops[i]!.op]} ${paths[i]}, request ${i + 1} of ${this.ops.length} sent at once)`, found);
      state = e.next;
    }
    Object.assign(m, explained[0]!.state);
  }

  toString(): string {
    return `at once: ${this.ops.map((op) => describeOp(op, undefined)).join(' ‖ ')}`;
  }
}

/** A target naming `canonical` in `s` (a slug when it is one, else its place among the posted articles). */
function targetOf(paths: Paths, canonical: string, s: ModelState): Target {
  const slug = paths.slugs.indexOf(canonical);
  return slug >= 0 ? { kind: 'slug', n: slug } : { kind: 'posted', n: Math.max(0, s.posted.indexOf(canonical)) };
}

export type ModelCommand = OpCommand | ConcurrentCommand;

/**
 * Articles of a sequence: plain values well inside any bounds (other scenarios try hard titles and prices; here
 * what matters is which article is where), numbered so two draws rarely coincide, and quick to shrink. Optional
 * fields on half of them (fc.option would leave them out one time in five): a write without them after an article
 * with them is what shows fields kept from before.
 */
export function modelArticleArb(optionalFields: readonly string[]): fc.Arbitrary<ArticleValue> {
  return fc.record({ n: fc.nat({ max: 99 }), price: fc.constantFrom('0.5', '1.5', '9.9'), currency: fc.constantFrom('eur', 'usd', 'jpy'), keep: fc.boolean() }).map(({ n, price, currency, keep }) => ({
    title: `article ${n} & <co>`,
    price,
    currency,
    fields: keep ? Object.fromEntries(optionalFields.map((f) => [f, `${f} ${n}`])) : {},
  }));
}

/** The command arbitraries a model scenario draws from, for this profile. */
export function commandArbitraries(deps: Pick<ExecDeps, 'profile' | 'bases'>, options: ModelOptions, leftOut: ReadonlySet<string> = new Set()): Array<fc.Arbitrary<ModelCommand>> {
  const { profile } = deps;
  const a = profile.articles;
  const kinds = new Set(options.commands ?? ['put', 'post', 'get', 'delete', 'options', 'concurrent']);
  const slugs = options.slugs ?? 2;
  const article = modelArticleArb(a.optionalFields);
  // Writes that need credentials carry valid ones with each scheme the harness can use, none, or wrong ones.
  // A scheme whose credentials could not be obtained (`leftOut`) leaves the model; the others are still judged.
  const schemes = a.writeAuth ? usableSchemes(profile, deps.bases).filter((s) => !leftOut.has(s)) : [];
  const scheme = schemes.length > 0 ? fc.constantFrom(...schemes) : fc.constant(undefined);
  const creds: Cred[] = a.writeAuth ? (schemes.length > 0 ? ['missing', 'wrong'] : ['missing']) : [];
  const cred = fc.oneof({ weight: 8, arbitrary: fc.constant<Cred>('valid') }, ...creds.map((c) => ({ weight: 1, arbitrary: fc.constant(c) })));
  const withScheme = (arb: fc.Arbitrary<Extract<Op, { cred: Cred }>>): fc.Arbitrary<Op> =>
    fc.tuple(arb, scheme).map(([x, s]): Op => (s === undefined || x.cred === 'missing' ? x : { ...x, scheme: s }));
  const slugTarget: fc.Arbitrary<Target> = fc.nat({ max: slugs - 1 }).map((n) => ({ kind: 'slug' as const, n }));
  const postedTarget: fc.Arbitrary<Target> = fc.nat({ max: 3 }).map((n) => ({ kind: 'posted' as const, n }));
  const target = kinds.has('post') ? fc.oneof({ weight: 3, arbitrary: slugTarget }, { weight: 2, arbitrary: postedTarget }) : slugTarget;
  const form = fc.nat({ max: a.aliases.length });
  const allowed = (op: Op): boolean => {
    if (op.op === 'delete' && !a.deletable) return false;
    if (op.op === 'options' && !profile.options.on.includes('item')) return false;
    return true;
  };
  const put = withScheme(fc.record({ op: fc.constant('put' as const), target, form, article, cred }));
  const get = fc.record({ op: fc.constant('get' as const), target, form });
  const del = withScheme(fc.record({ op: fc.constant('delete' as const), target, form, cred }));
  const arbs: Array<fc.Arbitrary<ModelCommand>> = [];
  const add = (kind: string, weight: number, arb: fc.Arbitrary<Op>) => {
    if (kinds.has(kind)) for (let i = 0; i < weight; i++) arbs.push(arb.map((op) => new OpCommand(op, allowed)));
  };
  add('put', 3, put);
  add('get', 1, get);
  add('delete', 2, del);
  add('post', 1, withScheme(fc.record({ op: fc.constant('post' as const), article, cred })));
  add('options', 1, fc.record({ op: fc.constant('options' as const), target, form }));
  if (kinds.has('concurrent') && a.clientChosenPut) {
    // Valid writes and reads of the slugs only: their answers are then defined in every order.
    const valid = fc.constant<Cred>('valid');
    // At once: valid credentials of the scheme `auto` picks (a signed request per copy, each with its own nonce).
    const one = fc.oneof(
      { weight: 3, arbitrary: fc.record({ op: fc.constant('put' as const), target: slugTarget, form, article, cred: valid }) as fc.Arbitrary<Op> },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('get' as const), target: slugTarget, form }) as fc.Arbitrary<Op> },
      ...(a.deletable ? [{ weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), target: slugTarget, form, cred: valid }) as fc.Arbitrary<Op> }] : []),
    );
    arbs.push(fc.array(one, { minLength: 2, maxLength: 3 }).map((ops) => new ConcurrentCommand(ops, allowed)));
  }
  return arbs;
}
