/**
 * Runs one scenario of either kind: written steps (runner/scenario.ts) or a model (model/run-model.ts). The one
 * place that knows both kinds, so runner/ and model/ do not import each other's entry points.
 */
import { runModelScenario } from '../model/run-model.js';
import type { ExecDeps } from '../runner/exec-types.js';
import { runStepScenario, type ScenarioRunOptions } from '../runner/scenario.js';
import type { ScenarioResult } from '../runner/types.js';
import type { Scenario } from '../suite/types.js';

/** Runs one scenario (its steps, or its model) and returns its result; the session around it is the caller's. */
export function runScenario(scenario: Scenario, deps: ExecDeps, options: ScenarioRunOptions): Promise<ScenarioResult> {
  switch (scenario.kind) {
    case 'steps':
      return runStepScenario(scenario, deps, options);
    case 'model':
      return runModelScenario(scenario, deps, options);
    default: {
      const never: never = scenario;
      throw new Error(`unknown scenario kind ${JSON.stringify(never)}`);
    }
  }
}
