/**
 * What the start order knows of a scenario before it runs: how long it waits on the clock, and roughly how many
 * requests it sends. The longest start first, so the run's wall time is not the last long scenario started late.
 */
import type { ResolvedProfile } from '../profile/schema.js';
import { STANDARD_METHODS } from '../runner/credentials.js';
import { render, toList } from '../runner/render.js';
import type { Scenario } from '../suite/types.js';

/** A model scenario's sequences are this long unless it says (model/run-model.ts). */
const MODEL_LENGTH = 12;
/** The `runs` a model scenario's own count is scaled against (model/run-model.ts). */
const DEFAULT_RUNS = 50;

/** What a template evaluates to when it reads the profile only; undefined when it needs more. */
function statically(template: string, profile: ResolvedProfile | undefined): unknown {
  if (profile === undefined) return undefined;
  try {
    return render(template, {
      profile,
      users: profile.users.map((u) => u.name),
      protectedPaths: profile.protected.map((r) => r.path),
      methods: STANDARD_METHODS,
    });
  } catch {
    return undefined;
  }
}

/**
 * Start-order priority: scenarios that wait out a clock (`wait:` steps) or the whole run (`atRunEnd` steps) start
 * first, so their waits overlap the rest (and a request replayed at the end was signed at the start); among them the
 * longest wait first, as far as the profile tells (`{{ ttl | default: profile.auth.oauth2.ttl }}`). 0 for the rest.
 */
export function waitsForClock(scenario: Scenario, profile?: ResolvedProfile): number {
  if (scenario.kind !== 'steps') return 0;
  let waits = 0;
  let seconds = 0;
  for (const step of scenario.steps) {
    if (step.atRunEnd === true) waits++;
    if (step.wait === undefined) continue;
    waits++;
    const s = Number(statically(step.wait, profile));
    if (Number.isFinite(s) && s > 0) seconds += Math.min(300, s);
  }
  return waits === 0 ? 0 : 1 + seconds;
}

/**
 * Roughly the requests a scenario sends with `runs` property runs: runs × steps, a step over a list counting the
 * list's length when the profile alone gives it (`{{ 300 | range }}`, the users) and 4 otherwise; a model scenario
 * its sequences × their length. Only compared with another scenario's, to start the longest first.
 */
export function estimatedCost(scenario: Scenario, runs: number, profile?: ResolvedProfile): number {
  if (scenario.kind === 'model') {
    const sequences = scenario.runs === undefined ? runs : (scenario.runs * runs) / DEFAULT_RUNS;
    return sequences * (scenario.model.length ?? MODEL_LENGTH) * 1.5;
  }
  const per = scenario.steps.reduce((n, step) => {
    if (step.each === undefined) return n + 1;
    const list = statically(step.each, profile);
    return n + (Array.isArray(list) || typeof list === 'string' ? toList(list).length : 4);
  }, 0);
  return (scenario.property ? (scenario.runs ?? runs) : 1) * per;
}
