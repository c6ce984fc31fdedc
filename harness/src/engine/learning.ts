/**
 * The learning of a session (session.ts): what the profile is silent on, learned before any scenario
 * (harness/src/learn) on a connection of its own, with `uniq` values no scenario's meet.
 */
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpClient } from '../http/client.js';
import { LEARNABLE_KEYS, learnOpenPoints, type LearnOutcome } from '../learn/learn.js';
import { oauth2Open } from '../learn/oauth2.js';
import type { ResolvedProfile } from '../profile/schema.js';
import type { Bases } from '../runner/exec-types.js';
import type { Redactor } from '../runner/redact.js';

/** The `uniq` position of the session's own values (scenarios count from 0; this never meets one of theirs). */
export const SESSION_INDEX = 36 ** 3 - 1;

/**
 * The `uniq` values of one scenario: the run's tag, the scenario's position (three base-36 digits, so the values of
 * two scenarios never meet) and a counter. They depend on nothing another scenario does, so a run gives the same
 * values at any concurrency.
 */
export function scenarioUniq(runTag: string, index: number): () => string {
  const prefix = `${runTag}${index.toString(36).padStart(3, '0')}`;
  let counter = 0;
  return () => `${prefix}${(counter++).toString(36)}`;
}

/**
 * Learns what the profile is silent on (harness/src/learn), on a connection of its own; undefined when the profile
 * declares every learnable key and pins or does not need the OAuth 1 approval (nor, for the scenarios `requires`
 * names — all when absent —, how the owner denies).
 */
export async function learnSilent(
  deps: { client: HttpClient; profile: ResolvedProfile; authenticator: Authenticator },
  options: { bases: Bases; requires?: ReadonlySet<string> },
  redactor: Redactor,
  runTag: string,
): Promise<LearnOutcome | undefined> {
  const { profile } = deps;
  const silent = LEARNABLE_KEYS.filter((k) => !profile.declared.has(k));
  const denyOpen =
    profile.auth.oauth1 !== undefined &&
    !profile.declared.has('auth.oauth1.deny') &&
    (options.requires?.has('auth.oauth1.deny') ?? true);
  const approvalOpen =
    profile.auth.oauth1 !== undefined &&
    profile.auth.oauth1.approval === undefined &&
    !profile.declared.has('auth.schemes');
  if (silent.length === 0 && !approvalOpen && !denyOpen && !oauth2Open(profile)) return undefined;
  const client = deps.client.session();
  try {
    return await learnOpenPoints({
      client,
      bases: options.bases,
      profile,
      authenticator: deps.authenticator,
      redactor,
      uniq: scenarioUniq(runTag, SESSION_INDEX),
      ...(denyOpen ? {} : { skip: ['auth.oauth1.deny'] }),
    });
  } finally {
    await client.close();
  }
}
