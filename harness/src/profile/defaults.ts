/**
 * Defaults of profile keys that rest on the spec's own words: the article bounds, how article text is compared, and
 * the protected paths.
 */
import { z } from 'zod';

/** Bounds of article values the target stores exactly (`articles.bounds`), resolved. */
export interface ArticleBounds {
  priceScale: number;
  /** Decimal text. */
  priceMax: string;
  titleMaxLength: number;
}

/**
 * Defaults of `articles.bounds`: ordinary values any store keeps (DECIMAL(7,2), a title of 50 code points — §2
 * shows no length, and a correct service may bound titles at 64 or 100; beyond the bound a refusal is allowed).
 */
export const DEFAULT_BOUNDS: Readonly<ArticleBounds> = { priceScale: 2, priceMax: '99999.99', titleMaxLength: 50 };

/**
 * Default of `protected`: the paths §4.4 itself names as protected, `/` and the per-user records. Whether another
 * user may read someone's records is not said, so `ownerOnly` is not assumed.
 */
export const DEFAULT_PROTECTED: ReadonlyArray<{ path: string; ownerOnly: boolean }> = [
  { path: '/', ownerOnly: false },
  { path: '/users/{user}/financialrecords', ownerOnly: false },
];

/** A meaning-preserving normalization of article text a store may apply (harness/src/xml/normalize.ts). */
export const TextNormalizationSchema = z.enum(['trim', 'collapse', 'nfc', 'nfd']);
export type TextNormalization = z.infer<typeof TextNormalizationSchema>;

/**
 * `articles.textNormalization` silent and not learned: every normalization that keeps the meaning is accepted (NFC
 * covers NFD: text is then compared by canonical equivalence).
 */
export const TEXT_NORMALIZATIONS_LENIENT: readonly TextNormalization[] = ['trim', 'collapse', 'nfc'];
