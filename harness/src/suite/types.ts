import type { GivenData, Level, RuleData, StepData } from './schema.js';
import type { ModelOptions } from './model-schema.js';

/** A rule of the requirement catalogue. */
export type Rule = RuleData;

/** The requirement catalogue (`specs/rules.yaml`): every rule of the spec and the RFCs it relies on, by id. */
export interface RuleCatalogue {
  file: string;
  rules: Rule[];
  byId: ReadonlyMap<string, Rule>;
}

/** What every validated scenario holds, whatever its kind. */
interface ScenarioBase {
  id: string;
  title: string;
  description?: string;
  /** Path as given to the loader (relative to the working directory when possible). */
  file: string;
  line: number;
  rules: string[];
  level: Level;
  tags: string[];
  requires: string[];
  given: Array<{ name: string; gen: string; options: Record<string, unknown> }>;
  /** Fixed run count, when the scenario sets one. */
  runs?: number;
  /** True when values are generated: the scenario is a property checked over many runs. */
  property: boolean;
  /** Runs with no other scenario in flight (see the format's `exclusive`). */
  exclusive: boolean;
  /** The scenario's rules with their levels: a failure counts at the level of the rules it is charged to. */
  ruleLevels?: Readonly<Record<string, Level>>;
}

/** A scenario of written steps, each sent and checked in order. */
export interface StepScenario extends ScenarioBase {
  kind: 'steps';
  let: Array<{ name: string; template: string }>;
  steps: StepData[];
}

/** A model scenario: sequences of commands drawn against a model of the resource (no steps). */
export interface ModelScenario extends ScenarioBase {
  kind: 'model';
  model: ModelOptions;
}

/** A validated scenario, ready to run: written steps, or a model. */
export type Scenario = StepScenario | ModelScenario;

/** A loaded suite: the scenarios of the scenario files, checked against the rule catalogue they cite. */
export interface Suite {
  scenarios: Scenario[];
  catalogue: RuleCatalogue;
}

export type { GivenData, Level, StepData };
