/** Named generators that scenarios draw from in `given:`. */
import fc from 'fast-check';
import { z } from 'zod';
import { oauth2Actors } from '../profile/oauth2-actors.js';
import type { OAuth2Actor, ResolvedProfile } from '../profile/schema.js';
import { articleArb, currencyArb, priceArb, slugArb, titleArb } from './article.js';
import type { ArticleOptions } from './article.js';
import { invalidArticleArb, invalidArticleCases } from './invalid-article.js';
import {
  digestMutationArb,
  malformedDateArb,
  OTHER_DATE_SHAPES,
  oauth2ClientAuthArb,
  otherDateShapeArb,
  type NonceBounds,
  noncePrefixArb,
  noncePrefixesArb,
  passwordMutationArb,
  skewInsideArb,
  skewOutsideArb,
} from './auth.js';

export interface GeneratorDef {
  description: string;
  options: z.ZodType<Record<string, unknown>>;
  make(options: Record<string, unknown>, profile: ResolvedProfile): fc.Arbitrary<unknown>;
  /**
   * The cases every run must try, each an arbitrary of `make`'s values fixed to one case (one defect, one shape):
   * a scenario's first runs draw one value of each ({@link coverExamples}), the rest are drawn at random. Without
   * it, a case one value in eight carries is left untried by about one seed in a thousand of 50 runs.
   */
  cases?(options: Record<string, unknown>, profile: ResolvedProfile): Array<fc.Arbitrary<unknown>>;
}

const NoOptions = z.strictObject({});

/**
 * The window assumed when the profile does not declare one: a Date this close to the clock is inside any window a
 * target keeps (Hawk's default is 60 s; §5.2's illustration 10 minutes). Nothing is expected refused then.
 */
export const SILENT_WINDOW_S = 30;

/** The actors a token request gives a token to, each with a path its token opens (a placeholder when none). */
function tokenActors(p: ResolvedProfile): OAuth2Actor[] {
  const all = oauth2Actors(p).filter((a) => a.path !== undefined && a.grant !== 'authorization_code');
  return all.length > 0 ? all : [{ clientId: '', grant: 'client_credentials' }];
}

/** The nonces a profile's target accepts. */
function nonceBounds(p: ResolvedProfile): NonceBounds {
  return { max: BigInt(p.auth.nonceMax), leadingZeros: p.auth.nonceLeadingZeros };
}

/** The value generators a scenario's `given` names, each a fast-check arbitrary with its options and the cases every run draws first. */
export const GENERATORS: Readonly<Record<string, GeneratorDef>> = {
  article: {
    description:
      "An article {title, price, currency, fields} inside the profile's articles.bounds; option optional: always | never | sometimes fills the profile's optionalFields; option values: beyond puts the title, the price or both beyond the bounds; values: oversized pads the title so the body is larger than articles.maxBodyBytes.",
    options: z.strictObject({
      optional: z.enum(['always', 'never', 'sometimes']).optional(),
      values: z.enum(['inside', 'beyond', 'oversized']).optional(),
    }),
    make: (o, p) =>
      articleArb(
        p.articles.optionalFields,
        {
          ...(o as ArticleOptions),
          ...(p.articles.maxBodyBytes !== undefined ? { bodyBytesOver: p.articles.maxBodyBytes } : {}),
        },
        p.articles.bounds,
      ),
  },
  invalidArticle: {
    description:
      'An invalid article {defect, xml}: a valid one (inside articles.bounds) with one defect — integer price, uppercase currency, a currency that is not a code, no title, a second title, another root, no price, no currency. Send {{ x.xml }} as a raw body.',
    options: NoOptions,
    make: (_o, p) => invalidArticleArb(p.articles.bounds),
    cases: (_o, p) => invalidArticleCases(p.articles.bounds),
  },
  title: {
    description: 'Any Unicode title, XML specials included, within articles.bounds.titleMaxLength.',
    options: NoOptions,
    make: (_o, p) => titleArb(40, p.articles.bounds.titleMaxLength),
  },
  price: {
    description: 'A decimal price with a fractional part, within articles.bounds (priceScale, priceMax).',
    options: NoOptions,
    make: (_o, p) => priceArb(p.articles.bounds),
  },
  currency: { description: 'A lowercase ISO 4217 currency code.', options: NoOptions, make: () => currencyArb() },
  slug: { description: 'A URL slug: lowercase words joined by "-".', options: NoOptions, make: () => slugArb() },
  noncePrefix: {
    description:
      "The leading digits of a nonce (min–max of them, defaults 0 and 4), such that with the 16 digits freshNonce appends it stays within the profile's auth.nonceMax, and starts with 0 only under auth.nonceLeadingZeros.",
    options: z.strictObject({
      min: z.number().int().min(0).max(4).optional(),
      max: z.number().int().min(0).max(4).optional(),
    }),
    make: (o, p) =>
      noncePrefixArb((o['max'] as number | undefined) ?? 4, nonceBounds(p), (o['min'] as number | undefined) ?? 0),
  },
  noncePrefixes: {
    description: "Distinct nonce prefixes (min, max; defaults 2 and 8), within the profile's nonce bounds.",
    options: z.strictObject({ min: z.number().int().min(1).optional(), max: z.number().int().max(100).optional() }),
    make: (o, p) =>
      noncePrefixesArb((o['min'] as number | undefined) ?? 2, (o['max'] as number | undefined) ?? 8, nonceBounds(p)),
  },
  skewInside: {
    description:
      'Seconds of clock skew strictly inside the profile\'s window (minus its margin); with auth.window unset, inside ±30 s (a window any target keeps: §5.2 says only "say 10 minutes").',
    options: NoOptions,
    make: (_o, p) =>
      skewInsideArb(p.declared.has('auth.window') ? p.auth.window : SILENT_WINDOW_S, p.auth.windowMargin),
  },
  skewOutside: {
    description: "Seconds of clock skew beyond the profile's window (plus its margin), whole days included.",
    options: NoOptions,
    make: (_o, p) => skewOutsideArb(p.auth.window, p.auth.windowMargin),
  },
  malformedDate: {
    description:
      'A Date value malformed under any reading: impossible dates and times, unknown months, text with no digits.',
    options: NoOptions,
    make: () => malformedDateArb(),
  },
  otherDateShape: {
    description:
      'A well-formed date shape other than DD Mon YYYY hh:mm:ss, for the dateShape filter: imf, rfc850, asctime, iso, no-seconds, dashes, epoch (not a lowercase month: the <date_text> of §5.2 is lowercase).',
    options: NoOptions,
    make: () => otherDateShapeArb(),
    cases: () => OTHER_DATE_SHAPES.map((shape) => fc.constant(shape)),
  },
  digestMutation: {
    description: 'A change of one character, a truncation, a drop or a case change of a digest.',
    options: NoOptions,
    make: () => digestMutationArb(),
  },
  passwordMutation: {
    description: 'A wrong password near the right one (prefix, extension, case, one character).',
    options: NoOptions,
    make: () => passwordMutationArb(),
  },
  bodyMutation: {
    description: 'A change of one character (anywhere in the body), a truncation or an extension of a body.',
    options: NoOptions,
    make: () =>
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc.record({
            kind: fc.constant('replace' as const),
            index: fc.nat(4096),
            char: fc.constantFrom('x', '0', ' ', 'é'),
          }),
        },
        {
          weight: 1,
          arbitrary: fc.record({ kind: fc.constant('extend' as const), suffix: fc.constantFrom(' ', '<!---->', '\n') }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), index: fc.nat(4096) }) },
      ),
  },
  textMutation: {
    description:
      'A change that always changes what a query or form text means: one character replaced, or one appended.',
    options: NoOptions,
    make: () =>
      fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record({
            kind: fc.constant('replace' as const),
            index: fc.nat(4096),
            char: fc.constantFrom('x', '0', 'Z'),
          }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('extend' as const), suffix: fc.constant('x') }) },
      ),
  },
  oauth2ClientAuth: {
    description:
      "An OAuth 2 client authentication the profile's auth.oauth2.clientAuth offers: basic (id and secret form-urlencoded, RFC 6749 §2.3.1) or form.",
    options: NoOptions,
    make: (_o, p) => oauth2ClientAuthArb(p.auth.oauth2?.clientAuth ?? ['basic']),
  },
  oauth2Actor: {
    description:
      'One way to an OAuth 2 access token at the token endpoint: a client of auth.oauth2 and a grant it takes (client_credentials, password), with the user the token acts for and a protected path it opens ({ clientId, grant, user, path }). Every actor is drawn first.',
    options: NoOptions,
    make: (_o, p) => fc.constantFrom(...tokenActors(p)),
    cases: (_o, p) => tokenActors(p).map((a) => fc.constant(a)),
  },
  oauth1Method: {
    description:
      'An OAuth 1 signature method the target takes: one of auth.oauth1.signatureMethods (HMAC-SHA1, PLAINTEXT, HMAC-SHA256), every one drawn first.',
    options: NoOptions,
    make: (_o, p) => fc.constantFrom(...(p.auth.oauth1?.signatureMethods ?? ['HMAC-SHA1'])),
    cases: (_o, p) => (p.auth.oauth1?.signatureMethods ?? ['HMAC-SHA1']).map((m) => fc.constant(m)),
  },
  oauth1Placement: {
    description:
      "Where OAuth 1 protocol parameters travel: one of the profile's auth.oauth1.placements (default: the Authorization header only). Option body: false, for a request with no form-encoded body (a GET): form is left out, as RFC 5849 §3.5.2 puts them in the body only when the request's body is form-encoded.",
    options: z.strictObject({ body: z.boolean().optional() }),
    make: (o, p) => {
      const all = p.auth.oauth1?.placements ?? ['header'];
      const usable = o['body'] === false ? all.filter((x) => x !== 'form') : all;
      return fc.constantFrom(...(usable.length > 0 ? usable : (['header'] as const)));
    },
  },
  pick: {
    description: 'One of the listed values (option from: [...]).',
    options: z.strictObject({ from: z.array(z.union([z.string(), z.number(), z.boolean()])).min(1) }),
    make: (o) => fc.constantFrom(...(o['from'] as Array<string | number | boolean>)),
  },
  queryParams: {
    description:
      'Query parameters as [name, value] pairs: reserved and non-ASCII characters, empty values, duplicate names.',
    options: NoOptions,
    make: () => {
      const text = fc.string({
        unit: fc.oneof(
          fc.constantFrom('&', '=', '+', '%', ' ', '/', '?', '#', '~', '*', "'", '!', 'é', '😀', '中'),
          fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
        ),
        maxLength: 8,
      });
      return fc.array(
        fc.tuple(
          fc.oneof(
            text.filter((t) => t.length > 0),
            fc.constantFrom('a', 'b', 'a'),
          ),
          text,
        ),
        { minLength: 1, maxLength: 5 },
      );
    },
  },
  instance: {
    description: "One of the profile's target.instances, by its number (1 = the first listed); 1 when none are listed.",
    options: NoOptions,
    make: (_o, p) => fc.integer({ min: 1, max: Math.max(1, p.target.instances.length) }),
  },
  count: {
    description: 'An integer between min and max (defaults 1 and 5).',
    options: z.strictObject({ min: z.number().int().optional(), max: z.number().int().optional() }),
    make: (o) => fc.integer({ min: (o['min'] as number | undefined) ?? 1, max: (o['max'] as number | undefined) ?? 5 }),
  },
};

/** A scenario's `given:` entries, resolved: each name with its generator's arbitrary and cases. */
export interface DrawnGiven {
  name: string;
  arb: fc.Arbitrary<unknown>;
  cases?: Array<fc.Arbitrary<unknown>> | undefined;
}

/**
 * The value sets a scenario tries before its random ones: as many as the most cases any of its generators declares
 * (at most `numRuns`), the i-th taking each generator's case i (cycling when it has fewer) and a value of the others,
 * all drawn from `seed`, so a replay and `conform diff` see the same ones. None when no generator declares cases.
 */
export function coverExamples(
  givens: readonly DrawnGiven[],
  seed: number,
  numRuns: number,
): Array<Record<string, unknown>> {
  const count = Math.min(numRuns, Math.max(0, ...givens.map((g) => g.cases?.length ?? 0)));
  const examples: Array<Record<string, unknown>> = [];
  for (let i = 0; i < count; i++) {
    const one = (arb: fc.Arbitrary<unknown>, k: number) =>
      fc.sample(arb, { seed: (seed + 7919 * (i + 1) + k) | 0, numRuns: 1 })[0];
    examples.push(
      Object.fromEntries(
        givens.map((g, k) => [g.name, one(g.cases?.length ? g.cases[i % g.cases.length]! : g.arb, k)]),
      ),
    );
  }
  return examples;
}
