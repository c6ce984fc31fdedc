/**
 * Text normalizations a store may apply to article text without changing its meaning (VERDICTS.md §1; RFC 9110
 * §9.3.4 lets an origin server transform a PUT representation to fit its constraints): edge whitespace trimmed,
 * whitespace runs collapsed, a Unicode canonical form. A target declares the ones it applies
 * (`articles.textNormalization`, `[]` for exact storage) or the harness learns them; text is then compared modulo
 * them. What changes meaning — truncation, rounding, characters dropped or replaced, compatibility folding (NFKC:
 * `²` → `2`) — is not among them and stays a difference under any profile.
 */

import type { TextNormalization } from '../profile/schema.js';
export type { TextNormalization } from '../profile/schema.js';

/** Every normalization, in the order they are applied. */
export const TEXT_NORMALIZATIONS: readonly TextNormalization[] = ['trim', 'collapse', 'nfc', 'nfd'];

/** In words, for reports ("titles are stored trimmed"). */
export const NORMALIZATION_WORDS: Record<TextNormalization, string> = {
  trim: 'edge whitespace trimmed',
  collapse: 'whitespace runs collapsed to one space',
  nfc: 'Unicode NFC (composed)',
  nfd: 'Unicode NFD (decomposed)',
};

/** XML 1.0's white space (S): space, tab, CR, LF. */
const XML_SPACE_RUN = /[ \t\r\n]+/g;
const XML_SPACE_EDGES = /^[ \t\r\n]+|[ \t\r\n]+$/g;

/**
 * `text` in the canonical form of `set`: the whitespace ones applied, and — when a Unicode form is in the set —
 * NFC (with both NFC and NFD, text is compared by canonical equivalence, which NFC decides as well as NFD).
 */
export function canonicalText(text: string, set: readonly TextNormalization[]): string {
  let out = text;
  if (set.includes('collapse')) out = out.replace(XML_SPACE_RUN, ' ');
  if (set.includes('trim')) out = out.replace(XML_SPACE_EDGES, '');
  if (set.includes('nfc') || set.includes('nfd')) out = out.normalize('NFC');
  return out;
}

/**
 * True when `served` is `sent` up to the normalizations of `set`. Equality modulo a set, not "served is exactly the
 * normalized text": a store that collapses spaces but keeps tabs is still a collapsing store.
 */
export function sameTextModulo(sent: string, served: string, set: readonly TextNormalization[]): boolean {
  return sent === served || (set.length > 0 && canonicalText(sent, set) === canonicalText(served, set));
}

/** The subsets of {@link TEXT_NORMALIZATIONS} that name a store (never NFC and NFD together), smallest first. */
function candidateSets(): TextNormalization[][] {
  const sets: TextNormalization[][] = [];
  for (let mask = 0; mask < 1 << TEXT_NORMALIZATIONS.length; mask++) {
    const set = TEXT_NORMALIZATIONS.filter((_, i) => (mask & (1 << i)) !== 0);
    if (set.includes('nfc') && set.includes('nfd')) continue;
    sets.push(set);
  }
  return sets.sort((a, b) => a.length - b.length);
}

/**
 * The smallest set of normalizations that explains `served` as `sent`, or undefined when none does (the text was
 * altered beyond them: cut, folded, replaced). NFC and NFD are told apart by what the served text holds: a store
 * that decomposes serves decomposed characters.
 */
export function explainNormalization(sent: string, served: string): TextNormalization[] | undefined {
  for (const set of candidateSets()) {
    if (!sameTextModulo(sent, served, set)) continue;
    const unicode = set.find((n) => n === 'nfc' || n === 'nfd');
    if (unicode === undefined) return set;
    // Modulo canonical equivalence NFC and NFD explain the same texts: say which form the store keeps.
    const form = served === served.normalize('NFD') && served !== served.normalize('NFC') ? 'nfd' : 'nfc';
    return set.map((n) => (n === 'nfc' || n === 'nfd' ? form : n));
  }
  return undefined;
}

/** "titles are stored trimmed, with whitespace runs collapsed" — what a learned set means, in words. */
export function describeNormalization(set: readonly TextNormalization[]): string {
  return set.length === 0 ? 'exactly as sent' : set.map((n) => NORMALIZATION_WORDS[n]).join(', ');
}
