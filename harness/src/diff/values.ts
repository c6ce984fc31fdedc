/**
 * The value sets a diff replays on both sides: drawn once per scenario with fast-check from the scenario's seed, with
 * generators made from a profile that suits both sides. Pure apart from fast-check's own computation.
 */
import fc from 'fast-check';
import { coverExamples } from '../generators/registry.js';
import type { ResolvedProfile } from '../profile/schema.js';
import { drawnGiven, scenarioSeed } from '../runner/scenario.js';
import type { Scenario } from '../suite/types.js';

/**
 * The profile a generator draws from so that one value works on both sides: optional article fields that both
 * profiles declare; for skews inside the window the narrower window and wider margin, for skews outside it the
 * wider window and wider margin. Everything else comes from the reference profile.
 */
export function valueProfile(gen: string, reference: ResolvedProfile, target: ResolvedProfile): ResolvedProfile {
  const optionalFields = reference.articles.optionalFields.filter((f) => target.articles.optionalFields.includes(f));
  const windows = [reference.auth.window, target.auth.window];
  const window = gen === 'skewOutside' ? Math.max(...windows) : Math.min(...windows);
  const windowMargin = Math.max(reference.auth.windowMargin, target.auth.windowMargin);
  return {
    ...reference,
    articles: { ...reference.articles, optionalFields },
    auth: { ...reference.auth, window, windowMargin },
  };
}

/** How many value sets a scenario gets: 1 when it generates nothing, else `runs` (or its own fixed count if lower). */
export function runCount(scenario: Pick<Scenario, 'property' | 'runs'>, runs: number): number {
  return scenario.property ? Math.min(scenario.runs ?? runs, runs) : 1;
}

/** Draws the value sets of one scenario: `fc.sample` seeded with `scenarioSeed(seed, id)`. */
export function drawValues(
  scenario: Scenario,
  seed: number,
  runs: number,
  reference: ResolvedProfile,
  target: ResolvedProfile,
): Array<Record<string, unknown>> {
  const numRuns = runCount(scenario, runs);
  const givens = scenario.given.map((g) => drawnGiven(g, valueProfile(g.gen, reference, target)));
  const arb: fc.Arbitrary<Record<string, unknown>> =
    givens.length > 0 ? fc.record(Object.fromEntries(givens.map((g) => [g.name, g.arb]))) : fc.constant({});
  // The cases first, as a run does (runner/scenario.ts), then random values.
  const examples = coverExamples(givens, scenarioSeed(seed, scenario.id), numRuns);
  return [
    ...examples,
    ...(numRuns > examples.length
      ? fc.sample(arb, { seed: scenarioSeed(seed, scenario.id), numRuns: numRuns - examples.length })
      : []),
  ];
}
