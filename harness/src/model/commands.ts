/**
 * The IO shell of model-based testing: fast-check commands that send one request each (or a few at once), judge the
 * answer with the pure model (model/articles.ts) and the step checks (runner/expect.ts), and update the model.
 */
import type fc from 'fast-check';
import { headerValue } from '../runner/response-parts.js';
import { locationPath } from '../runner/location.js';
import type { HttpResponse } from '../http/client.js';
import type { BuiltRequest } from '../runner/instances.js';
import { originsOf } from '../runner/step-checks.js';
import {
  afterPost,
  canonicalOf,
  describeOp,
  expectationOf,
  pathIn,
  resolve,
  RULES,
  type Expectation,
  type ModelState,
  type Op,
  type Paths,
  type Target,
} from './articles.js';
import { linearizations } from './linearize.js';
import { build, fail, judge, METHOD, ModelFailure, send, type Real } from './exchange.js';

export { ModelError, ModelFailure, type Real } from './exchange.js';

/** One request of the model, checked against the model's expectation. */
export class OpCommand implements fc.AsyncCommand<ModelState, Real, true> {
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
    const path =
      this.op.op === 'post'
        ? real.deps.profile.articles.collection
        : canonical !== undefined
          ? pathIn(real.paths, canonical, this.op.form)
          : undefined;
    if (e === undefined || path === undefined) return; // the profile leaves this request's answer open: not sent
    const built = await build(this.op, path, real);
    const res = await send(real, built);
    real.lines.push(`${describeOp(this.op, path)} → ${res.status}`);
    const where = `command ${real.lines.length} (${METHOD[this.op.op]} ${path})`;
    const found = judge(res, e, built, real);
    if (found.length > 0)
      fail(
        where,
        this.op.op === 'get' && canonical !== undefined ? await chargeRead(m, real, canonical, found) : found,
      );
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
    if (written !== undefined && this.op.op !== 'get' && this.op.op !== 'options')
      await readBack(m, real, written, 'form' in this.op ? this.op.form : 0);
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
async function chargeRead(
  m: ModelState,
  real: Real,
  canonical: string,
  found: Array<{ message: string; rule: string }>,
): Promise<Array<{ message: string; rule: string }>> {
  const last = m.lastWrite.get(canonical);
  if (last === undefined || !found.some((f) => f.rule === RULES.alias)) return found;
  const path = pathIn(real.paths, canonical, last.form);
  const op: Op = { op: 'get', target: targetOf(real.paths, canonical, m), form: last.form };
  const e = path === undefined ? undefined : expectationOf(op, m, real.paths, real.deps.profile);
  if (e === undefined || path === undefined) return found;
  const built = await build(op, path, real);
  const again = judge(await send(real, built), e, built, real);
  if (again.length === 0) return aliasRules(found);
  return found.map((f) =>
    f.rule === RULES.alias
      ? { message: `${f.message} (and the same through ${path}, the form written through)`, rule: last.rule }
      : f,
  );
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
export class ConcurrentCommand implements fc.AsyncCommand<ModelState, Real, true> {
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
    const ok = (res: HttpResponse, e: Expectation | undefined, b: BuiltRequest) =>
      e !== undefined && judge(res, e, b, real, true).length === 0;
    const explained = linearizations<ModelState>(
      m,
      this.ops.map((op, i) => (s: ModelState) => {
        const e = expectationOf(op, s, real.paths, profile);
        return ok(answers[i]!, e, built[i]!) ? e!.next : undefined;
      }),
      (s) =>
        touched.every((canonical, k) =>
          ok(
            reads[k]!,
            expectationOf({ op: 'get', target: targetOf(real.paths, canonical, s), form: 0 }, s, real.paths, profile),
            readBuilt[k]!,
          ),
        ),
    );
    const sent = this.ops.map((op, i) => `${describeOp(op, paths[i])} → ${answers[i]!.status}`);
    real.lines.push(
      `at once: ${sent.join(' ‖ ')}; then ${touched.map((p, k) => `GET ${p} → ${reads[k]!.status}`).join(', ')}`,
    );
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
          fail(
            `command ${real.lines.length} (${METHOD[op.op]} ${paths[i]}, request ${i + 1} of ${this.ops.length} sent at once)`,
            judge(answers[i]!, e, built[i]!, real),
          );
        }
      }
      const rules: string[] = [];
      for (const [i, op] of this.ops.entries()) {
        if (op.op === 'delete') rules.push(RULES.delete);
        else if (op.op === 'put') rules.push(m.articles.has(targets[i]!) ? RULES.replaced : RULES.created);
      }
      throw new ModelFailure(
        [
          `command ${real.lines.length}: no order of the ${this.ops.length} concurrent requests, applied one at a time, explains their answers and the state read right after (${sent.join('; ')})`,
        ],
        [...new Set(rules.length > 0 ? rules : [RULES.replaced])],
      );
    }
    // In the order found, each answer must also pass the checks that do not bear on the state (a 201's Location).
    let state = m;
    for (const i of explained[0]!.order) {
      const e = expectationOf(this.ops[i]!, state, real.paths, profile)!;
      const found = judge(answers[i]!, e, built[i]!, real);
      if (found.length > 0)
        fail(
          `command ${real.lines.length} (${METHOD[this.ops[i]!.op]} ${paths[i]}, request ${i + 1} of ${this.ops.length} sent at once)`,
          found,
        );
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
