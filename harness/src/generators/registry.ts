/** Named generators that scenarios draw from in `given:`. */
import fc from 'fast-check';
import { z } from 'zod';
import type { ResolvedProfile } from '../profile/schema.js';
import { articleArb, currencyArb, priceArb, slugArb, titleArb } from './article.js';

export interface GeneratorDef {
  description: string;
  options: z.ZodType<Record<string, unknown>>;
  make(options: Record<string, unknown>, profile: ResolvedProfile): fc.Arbitrary<unknown>;
}

const NoOptions = z.strictObject({});

export const GENERATORS: Readonly<Record<string, GeneratorDef>> = {
  article: {
    description: 'An article {title, price, currency, fields}; option optional: always | never | sometimes fills the profile\'s optionalFields.',
    options: z.strictObject({ optional: z.enum(['always', 'never', 'sometimes']).optional() }),
    make: (o, p) => articleArb(p.articles.optionalFields, o as { optional?: 'always' | 'never' | 'sometimes' }),
  },
  title: { description: 'Any Unicode title, XML specials included.', options: NoOptions, make: () => titleArb() },
  price: { description: 'A decimal price with a fractional part.', options: NoOptions, make: () => priceArb() },
  currency: { description: 'A lowercase ISO 4217 currency code.', options: NoOptions, make: () => currencyArb() },
  slug: { description: 'A URL slug: lowercase words joined by "-".', options: NoOptions, make: () => slugArb() },
  count: {
    description: 'An integer between min and max (defaults 1 and 5).',
    options: z.strictObject({ min: z.number().int().optional(), max: z.number().int().optional() }),
    make: (o) => fc.integer({ min: (o['min'] as number | undefined) ?? 1, max: (o['max'] as number | undefined) ?? 5 }),
  },
};
