/**
 * A PASS means what the profile describes was checked (VERDICTS.md §3). A capability the profile describes — a scheme
 * it gives credentials for, a key it declares (an alias, a body limit, a second OAuth client, instances) — that no
 * selected scenario could exercise makes the run INCOMPLETE, not PASS: a skip on the user's omission (OAuth 1
 * settings without the owner's credentials, a scheme the target turned out not to offer) must never look like a clean
 * run. Pure: the profile as the file gives it, the profile the run judged by, the selection and its results.
 */
import { CAPABILITIES } from '../profile/capabilities.js';
import type { ResolvedProfile, Scheme } from '../profile/schema.js';
import type { Scenario } from '../suite/types.js';
import type { ScenarioResult } from './types.js';

/** One capability the profile describes that the run did not exercise. */
export interface Unexercised {
  /** The requirement, as scenarios name it (`auth.oauth1`, `articles.aliases`). */
  capability: string;
  /** What the profile says, in words. */
  described: string;
  /** The selected scenarios that needed it, all skipped. */
  scenarios: string[];
  /** Why they were skipped (the first reason). */
  why: string;
}

const SCHEME_CAPABILITIES: Readonly<Record<string, Scheme>> = {
  'auth.basic': 'basic',
  'auth.hmac': 'hmac',
  'auth.hmac-nonce': 'hmac-nonce',
  'auth.oauth2': 'oauth2',
  'auth.oauth1': 'oauth1',
};

/** Whether the profile file gives credentials for `scheme` (a password, a secret, the OAuth settings). */
function givesCredentials(p: ResolvedProfile, scheme: Scheme): boolean {
  if (scheme === 'basic') return p.users.some((u) => u.password !== undefined);
  if (scheme === 'hmac' || scheme === 'hmac-nonce') return p.users.some((u) => u.secret !== undefined);
  return scheme === 'oauth2' ? p.auth.oauth2 !== undefined : p.auth.oauth1 !== undefined;
}

/** The profile key a capability is declared by: the dotted path its skip reason starts with. */
function keyOf(capability: string): string {
  const text = CAPABILITIES[capability]?.key ?? capability;
  return (/^[A-Za-z0-9_.]+/.exec(text)?.[0] ?? capability).replace(/\.$/, '');
}

/**
 * In words, what the profile file says of `capability`, or undefined when it does not describe it: a scheme it gives
 * credentials for (and, where `auth.schemes` is declared, lists); any other capability whose key the file declares
 * and which holds on the file's profile (a default the user never wrote describes nothing).
 */
export function described(capability: string, file: ResolvedProfile): string | undefined {
  const cap = CAPABILITIES[capability];
  if (cap === undefined) return undefined;
  // The owner's credentials are what OAuth 1 needs to be obtained at all: given OAuth 1, they are described too.
  if (capability === 'auth.oauth1.owner') return described('auth.oauth1', file);
  const scheme = SCHEME_CAPABILITIES[capability];
  if (scheme !== undefined) {
    if (!givesCredentials(file, scheme)) return undefined;
    if (file.declared.has('auth.schemes') && !file.auth.schemes.includes(scheme)) return undefined;
    return `the profile gives ${scheme} credentials`;
  }
  const key = keyOf(capability);
  if (!file.declared.has(key) || !cap.test(file)) return undefined;
  return `the profile declares ${key}`;
}

/**
 * The capabilities the profile file describes that every selected scenario needing them skipped — for want of them
 * in the profile the run judged by (learned away, or refused). Empty when everything described was exercised.
 */
export function unexercised(
  selected: readonly Scenario[],
  results: readonly ScenarioResult[],
  file: ResolvedProfile,
  judged: ResolvedProfile,
): Unexercised[] {
  const byCapability = new Map<string, { ran: boolean; skipped: string[]; why?: string }>();
  selected.forEach((scenario, i) => {
    const result = results[i];
    if (result === undefined) return;
    for (const raw of scenario.requires) {
      if (raw.startsWith('!') || described(raw, file) === undefined) continue;
      const entry = byCapability.get(raw) ?? { ran: false, skipped: [] };
      if (result.status !== 'skipped') entry.ran = true;
      else if (CAPABILITIES[raw]?.test(judged) === false) {
        entry.skipped.push(scenario.id);
        entry.why ??= result.reason;
      }
      byCapability.set(raw, entry);
    }
  });
  const out: Unexercised[] = [];
  for (const [capability, e] of byCapability) {
    if (e.ran || e.skipped.length === 0) continue;
    out.push({ capability, described: described(capability, file)!, scenarios: e.skipped, why: e.why ?? '' });
  }
  return out;
}

/** One unexercised capability in words: "auth.oauth1: the profile gives oauth1 credentials, but 13 scenarios …". */
export function describeUnexercised(u: Unexercised): string {
  const n = u.scenarios.length;
  return `${u.capability}: ${u.described}, but the ${n} scenario${n === 1 ? '' : 's'} needing it ${n === 1 ? 'was' : 'were'} skipped (${u.why})`;
}
