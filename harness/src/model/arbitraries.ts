/** The command arbitraries a model scenario draws from: which requests, with which credentials, on which URLs. */
import fc from 'fast-check';
import type { ArticleValue } from '../generators/article.js';
import type { ModelOptions } from '../suite/model-schema.js';
import { oauth2Actors } from '../profile/oauth2-actors.js';
import { usableSchemes } from '../runner/credentials.js';
import type { ExecDeps } from '../runner/exec-types.js';
import { type Cred, type Op, type Target } from './articles.js';
import { ConcurrentCommand, OpCommand, type ModelCommand } from './commands.js';

/**
 * Articles of a sequence: plain values well inside any bounds (other scenarios try hard titles and prices; here
 * what matters is which article is where), numbered so two draws rarely coincide, and quick to shrink. Optional
 * fields on half of them (fc.option would leave them out one time in five): a write without them after an article
 * with them is what shows fields kept from before.
 */
export function modelArticleArb(optionalFields: readonly string[]): fc.Arbitrary<ArticleValue> {
  return fc
    .record({
      n: fc.nat({ max: 99 }),
      price: fc.constantFrom('0.5', '1.5', '9.9'),
      currency: fc.constantFrom('eur', 'usd', 'jpy'),
      keep: fc.boolean(),
    })
    .map(({ n, price, currency, keep }) => ({
      title: `article ${n} & <co>`,
      price,
      currency,
      fields: keep ? Object.fromEntries(optionalFields.map((f) => [f, `${f} ${n}`])) : {},
    }));
}

/** The command arbitraries a model scenario draws from, for this profile. */
export function commandArbitraries(
  deps: Pick<ExecDeps, 'profile' | 'bases'>,
  options: ModelOptions,
  leftOut: ReadonlySet<string> = new Set(),
): Array<fc.Arbitrary<ModelCommand>> {
  const { profile } = deps;
  const a = profile.articles;
  const kinds = new Set(options.commands ?? ['put', 'post', 'get', 'delete', 'options', 'concurrent']);
  const slugs = options.slugs ?? 2;
  const article = modelArticleArb(a.optionalFields);
  // Writes that need credentials carry valid ones with each scheme the harness can use, none, or wrong ones.
  // A scheme whose credentials could not be obtained (`leftOut`) leaves the model; the others are still judged.
  // OAuth 2 is drawn as each of its actors acting for a user — every grant the profile's clients take, not one token:
  // `oauth2:<clientId>:<grant>` (exchange.ts obtains that actor's token).
  const schemes = (a.writeAuth ? usableSchemes(profile, deps.bases).filter((s) => !leftOut.has(s)) : [])
    .flatMap((s): string[] =>
      s === 'oauth2'
        ? oauth2Actors(profile)
            .filter((x) => x.user !== undefined)
            .map((x) => `oauth2:${x.clientId}:${x.grant}`)
        : [s],
    )
    .filter((s) => !leftOut.has(s));
  const scheme = schemes.length > 0 ? fc.constantFrom(...schemes) : fc.constant(undefined);
  const creds: Cred[] = a.writeAuth ? (schemes.length > 0 ? ['missing', 'wrong'] : ['missing']) : [];
  const cred = fc.oneof(
    { weight: 8, arbitrary: fc.constant<Cred>('valid') },
    ...creds.map((c) => ({ weight: 1, arbitrary: fc.constant(c) })),
  );
  const withScheme = (arb: fc.Arbitrary<Extract<Op, { cred: Cred }>>): fc.Arbitrary<Op> =>
    fc.tuple(arb, scheme).map(([x, s]): Op => (s === undefined || x.cred === 'missing' ? x : { ...x, scheme: s }));
  const slugTarget: fc.Arbitrary<Target> = fc.nat({ max: slugs - 1 }).map((n) => ({ kind: 'slug' as const, n }));
  const postedTarget: fc.Arbitrary<Target> = fc.nat({ max: 3 }).map((n) => ({ kind: 'posted' as const, n }));
  const target = kinds.has('post')
    ? fc.oneof({ weight: 3, arbitrary: slugTarget }, { weight: 2, arbitrary: postedTarget })
    : slugTarget;
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
      {
        weight: 3,
        arbitrary: fc.record({
          op: fc.constant('put' as const),
          target: slugTarget,
          form,
          article,
          cred: valid,
        }) as fc.Arbitrary<Op>,
      },
      {
        weight: 1,
        arbitrary: fc.record({ op: fc.constant('get' as const), target: slugTarget, form }) as fc.Arbitrary<Op>,
      },
      ...(a.deletable
        ? [
            {
              weight: 1,
              arbitrary: fc.record({
                op: fc.constant('delete' as const),
                target: slugTarget,
                form,
                cred: valid,
              }) as fc.Arbitrary<Op>,
            },
          ]
        : []),
    );
    arbs.push(fc.array(one, { minLength: 2, maxLength: 3 }).map((ops) => new ConcurrentCommand(ops, allowed)));
  }
  return arbs;
}
