/**
 * One way through a step: its sends are planned (one request, N copies of one, or a group of different requests at
 * once), sent, and judged in one place — whatever the step's shape, the same checks, the same messages, the same
 * charging. The step loop (execute.ts) only decides which steps run.
 */
import { splitUrl, type SendResult } from '../http/client.js';
import type { CheckName, ExpectData, StepData } from '../suite/schema.js';
import { stringify, type Scope } from '../suite/template.js';
import type { ExecDeps } from './exec-types.js';
import { checkResponseByCheck, type CheckContext } from './expect.js';
import { instanceNumber, toInstance, type BuiltRequest } from './instances.js';
import { render } from './render.js';
import { buildRequest } from './request.js';
import { checkCounts } from './step-checks.js';
import type { TokenExchange } from '../oauth/index.js';

/** One request of a step, built, with what its answer must be and how a message about it reads. */
export interface PlannedSend {
  built: BuiltRequest;
  expect: ExpectData | undefined;
  /** How a transport error of this send is named: `METHOD /path` (on instance N) (the group member's name). */
  name(): string;
  /** A message about this answer, as the report shows it (before the step's own prefix). */
  label: (message: string) => string;
}

/** A step's sends: sent at once (a concurrent group or `repeat.concurrent`) or one after another. */
export interface Plan {
  sends: PlannedSend[];
  concurrent: boolean;
  /**
   * How the step's messages are prefixed (`METHOD /path`), or '' when each send names itself (a group): built only
   * when a message needs it (most steps pass, and a passing step needs no name).
   */
  prefix(): string;
  /** The request captures and `replayOf` refer to (the step's own, not a copy's). */
  primary: BuiltRequest;
}

/** What planning obtained on the way (OAuth tokens), for the transcript. */
export interface Obtained {
  exchanges: TokenExchange[];
  instance?: number;
}

/** What judging a step's answers found. */
export interface Judgement {
  messages: string[];
  failedChecks: Set<CheckName>;
}

/** The path and query of a URL, as WHATWG URL parsing gives them (split without parsing in the common case). */
function pathOf(url: string): string {
  return splitUrl(url).path;
}

/** How messages name the instance a request went to. */
export function onInstanceText(instance: number | undefined): string {
  return instance === undefined ? '' : ` on instance ${instance}`;
}

const where = (b: BuiltRequest) => `${b.request.method} ${pathOf(b.request.url)}${onInstanceText(b.instance)}`;

export function instanceOf(
  value: StepData['instance'],
  scope: Scope,
  deps: ExecDeps,
): number | undefined | { error: string } {
  return value === undefined
    ? undefined
    : instanceNumber(typeof value === 'number' ? value : render(value, scope), deps);
}

/**
 * Plans a step's sends: the requests built in order (fresh nonces and tokens for each; what obtaining tokens sent
 * goes to `obtained`), an earlier step's request for `replayOf`, copies for `repeat` (spread over instances when
 * asked).
 */
export function planStep(
  step: StepData,
  scope: Scope,
  deps: ExecDeps,
  sentByStep: ReadonlyMap<string, BuiltRequest>,
  obtained: (o: Obtained) => void,
): Plan | { error: string } | Promise<Plan | { error: string }> {
  if (step.concurrent !== undefined) return planGroup(step.concurrent, scope, deps, obtained);
  const instance = instanceOf(step.instance, scope, deps);
  if (typeof instance === 'object') return instance;
  if (step.replayOf !== undefined) {
    const earlier = sentByStep.get(step.replayOf);
    if (!earlier) return { error: `replayOf "${step.replayOf}": that step sent nothing` };
    const moved = instance === undefined ? earlier : toInstance(earlier, instance, deps);
    if ('error' in moved) return moved;
    return planCopies(step, step.replayAs ? replayedAs(moved, step.replayAs, scope) : moved, deps);
  }
  // Synchronous unless a token must be obtained first: this runs for every request.
  const then = (b: Awaited<ReturnType<typeof buildRequest>>) => {
    obtained({ exchanges: b.obtained ?? [], ...(instance !== undefined ? { instance } : {}) });
    return 'error' in b ? b : planCopies(step, b, deps);
  };
  const b = buildRequest(step, scope, deps, instance);
  return b instanceof Promise ? b.then(then) : then(b);
}

/** A `concurrent` group's sends, built in order (each with fresh nonces and tokens). */
async function planGroup(
  group: NonNullable<StepData['concurrent']>,
  scope: Scope,
  deps: ExecDeps,
  obtained: (o: Obtained) => void,
): Promise<Plan | { error: string }> {
  {
    const sends: PlannedSend[] = [];
    for (const [k, sub] of group.entries()) {
      const n = instanceOf(sub.instance, scope, deps);
      if (typeof n === 'object') return n;
      const b = await buildRequest({ request: sub.request }, scope, deps, n);
      obtained({ exchanges: b.obtained ?? [], ...(n !== undefined ? { instance: n } : {}) });
      if ('error' in b) return b;
      const name = sub.name ?? `request ${k + 1} of ${group.length}`;
      sends.push({
        built: b,
        expect: sub.expect,
        name: () => `${where(b)} (${name})`,
        label: (m) => `${where(b)} (${name}): ${m}`,
      });
    }
    return { sends, concurrent: true, prefix: () => '', primary: sends[0]!.built };
  }
}

/** A step's request and its `repeat` copies. */
function planCopies(step: StepData, built: BuiltRequest, deps: ExecDeps): Plan | { error: string } {
  const times = step.repeat?.times ?? 1;
  const copies = spreadOver(built, times, step.repeat?.spread === true, deps);
  if ('error' in copies) return copies;
  // How the step's messages name it (a copy sent where the request was built is named the same).
  const prefix = () => where(built);
  // Pushed, not `copies.map(...)`: map gives a packed array in the interpreter but a holey one once TurboFan has
  // inlined it, and that change of map deoptimized every function reading `plan.sends` (executeSteps, sendPlan).
  const sends: PlannedSend[] = [];
  for (let k = 0; k < copies.length; k++) {
    const copy = copies[k]!;
    sends.push({
      built: copy,
      expect: step.expect,
      name: copy === built ? prefix : () => where(copy),
      label: (m) => (times > 1 ? `answer ${k + 1} of ${times}${onInstanceText(copy.instance)}: ${m}` : m),
    });
  }
  return { sends, concurrent: step.repeat?.concurrent === true, prefix, primary: built };
}

/** An earlier request with its headers and body as sent (signature included), under another method or query. */
export function replayedAs(built: BuiltRequest, as: NonNullable<StepData['replayAs']>, scope: Scope): BuiltRequest {
  const query = as.query === undefined ? '' : stringify(render(as.query, scope));
  const url =
    query === '' ? built.request.url : `${built.request.url}${built.request.url.includes('?') ? '&' : '?'}${query}`;
  return { ...built, request: { ...built.request, method: as.method ?? built.request.method, url } };
}

/** Sends a plan: all together over separate connections, or one after another (stopping at a transport error). */
export async function sendPlan(plan: Plan, deps: ExecDeps): Promise<SendResult[]> {
  if (!plan.concurrent && plan.sends.length === 1) return [await deps.client.send(plan.sends[0]!.built.request)];
  if (plan.concurrent) {
    // Their last bytes together where the client can (last-byte synchronisation), else at once over many connections.
    const requests = plan.sends.map((s) => s.built.request);
    if (deps.client.sendTogether) return deps.client.sendTogether(requests);
    return Promise.all(requests.map((r) => deps.client.send(r, { concurrent: true })));
  }
  const out: SendResult[] = [];
  for (const s of plan.sends) {
    const r = await deps.client.send(s.built.request);
    out.push(r);
    if (!r.ok) break;
  }
  return out;
}

/**
 * Judges a step's answers: each against its own expectation, then the step's `expectCount` over all of them, then
 * the out-of-band listener. `context` gives each send its check context.
 */
export function judgeStep(
  step: StepData,
  plan: Plan,
  results: readonly SendResult[],
  scope: Scope,
  deps: ExecDeps,
  context: (b: BuiltRequest) => CheckContext,
): Judgement | Promise<Judgement> {
  const messages: string[] = [];
  const failedChecks = new Set<CheckName>();
  for (let k = 0; k < results.length; k++) {
    const sent = results[k]!;
    if (!sent.ok) continue;
    const s = plan.sends[k]!;
    const found = checkResponseByCheck(sent.response, s.expect, context(s.built));
    for (let n = 0; n < found.length; n++) {
      failedChecks.add(found[n]!.check);
      messages.push(s.label(found[n]!.message));
    }
  }
  if (step.expectCount !== undefined) {
    const counts = checkCounts(step, [...results], (t) => render(t, scope));
    if (counts.length > 0) failedChecks.add('expectCount');
    messages.push(...counts);
  }
  if (!step.expect?.oob || !deps.oob) return { messages, failedChecks };
  return listenForOob(step.expect.oob.within ?? 1, deps.oob, deps, { messages, failedChecks });
}

/**
 * Waiting for a contact that a correct target never makes: the scenario steps aside meanwhile (its lane goes to
 * others, its time limit stops), and a contact ends the wait at once.
 */
function listenForOob(
  within: number,
  oob: NonNullable<ExecDeps['oob']>,
  deps: ExecDeps,
  judged: Judgement,
): Promise<Judgement> {
  const listen = () => oob.contactedWithin(within);
  return (deps.idle ? deps.idle(listen) : listen()).then((contacted) => {
    if (contacted.length > 0) judged.failedChecks.add('oob');
    judged.messages.push(...contacted);
    return judged;
  });
}

/** The copies of a repeated request: all to where it was built, or spread round-robin over the instances. */
function spreadOver(
  built: BuiltRequest,
  times: number,
  spread: boolean,
  deps: ExecDeps,
): BuiltRequest[] | { error: string } {
  if (!spread) return times === 1 ? [built] : Array.from({ length: times }, () => built);
  const n = deps.profile.target.instances.length;
  if (n === 0) return { error: 'repeat.spread needs the instances of the profile (target.instances)' };
  const out: BuiltRequest[] = [];
  for (let k = 0; k < times; k++) {
    const copy = toInstance(built, (k % n) + 1, deps);
    if ('error' in copy) return copy;
    out.push(copy);
  }
  return out;
}
