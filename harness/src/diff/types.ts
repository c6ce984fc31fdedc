/** Data of differential mode: what each side answered, where the two sides differ, and the result of a diff run. */
import type { Bases } from '../runner/exec-types.js';
import type { ResolvedProfile } from '../profile/schema.js';

/** Which server an observation comes from. */
export type Side = 'reference' | 'target';

/** What a side is, for the comparison: its profile (which says what it chose where the spec is open) and bases. */
export interface SideContext {
  profile: ResolvedProfile;
  bases: Bases;
}

/** How a `Location` header relates to the side's own path templates. Ids never matter, only the verdict. */
export type LocationVerdict = 'absent' | 'item' | 'alias' | 'other' | 'invalid';

/** The kind of resource a request addressed, judged with the side's own profile. */
export type ResourceKind = 'collection' | 'item' | 'protected' | 'other';

/** Article data read from a response body (first occurrence of each element; null when missing). */
export interface ArticleData {
  title: string | null;
  price: string | null;
  currency: string | null;
  /** Optional text elements, by name (only the names either profile declares). */
  fields: Record<string, string | null>;
}

/** Everything the diff compares about one exchange, already normalized where the representation is incidental. */
export interface Observation {
  method: string;
  /** Request path below the side's base URL (query included). */
  path: string;
  resource: ResourceKind;
  /** Undefined when the exchange ended in a transport error. */
  status?: number;
  /** Transport error code when there was no response. */
  error?: string;
  /** Allow as a sorted set of upper-case method names; undefined when the header is absent. */
  allow?: string[];
  location: LocationVerdict;
  /** The Location path below the base, for messages only. */
  locationPath?: string;
  /** Challenge scheme names of WWW-Authenticate, lower-case, sorted, distinct. */
  challenges: string[];
  /** Media type of the response, lower-case, without parameters. */
  contentType?: string;
  body: 'empty' | 'article' | 'other';
  article?: ArticleData;
}

/** A compared aspect of an exchange. `article.<name>` covers title, price, currency and the optional fields. */
export type DiffField =
  | 'exchange'
  | 'transport'
  | 'status'
  | 'allow'
  | 'location'
  | 'www-authenticate'
  | 'body'
  | 'content-type'
  | `article.${string}`;

/** A value as reported: JSON data. */
export type DiffValue = string | number | boolean | null | string[];

/** One difference between the two sides, in one exchange of one run. */
export interface Difference {
  /** 1-based step index of the scenario. */
  step: number;
  stepName?: string;
  /** 1-based position of the exchange among those of its step with the same method. */
  exchange: number;
  method: string;
  /** The request path on the reference side (the target's when only the target sent it). */
  path: string;
  /** The request path on the target side, when it differs from `path`. */
  targetPath?: string;
  /** The instance of the target's `target.instances` the request went to (1-based); absent: the target itself. */
  instance?: number;
  field: DiffField;
  reference: DiffValue;
  target: DiffValue;
}

/** A difference seen in one or more runs of a scenario (grouped by step, exchange, field and both values). */
export interface GroupedDifference extends Difference {
  /** 1-based indices of the runs that showed it. */
  runs: number[];
}

/** Outcome counts of one side over a scenario's runs. */
export interface OutcomeCounts {
  pass: number;
  fail: number;
  error: number;
  /** The first failure or error message, redacted. */
  firstProblem?: string;
}

export type ScenarioDiffStatus = 'same' | 'different' | 'skipped';

export interface ScenarioDiff {
  id: string;
  title: string;
  file: string;
  status: ScenarioDiffStatus;
  /** Why it was skipped (the side and the profile key). */
  reason?: string;
  /** Value sets drawn and replayed on both sides. */
  runs: number;
  /** Requests sent, per side. */
  requests: { reference: number; target: number };
  outcomes: { reference: OutcomeCounts; target: OutcomeCounts };
  differences: GroupedDifference[];
  /** Generated values of the runs that showed a difference (redacted), by 1-based run index. */
  values?: Record<string, Record<string, unknown>>;
  /** How often each equivalence rule turned an apparent difference into "the same". */
  ignored: Record<string, number>;
  durationMs: number;
}

export interface DiffSummary {
  scenarios: number;
  same: number;
  different: number;
  skipped: number;
  /** Distinct differences (grouped) over all scenarios. */
  differences: number;
}

/** The result of `conform diff`, written as `diff.json`. */
export interface DiffResult {
  schemaVersion: 1;
  tool: { name: 'conform'; version: string };
  reference: { url: string; profile: string; embedded: boolean };
  target: { url: string; profile: string };
  seed: number;
  runs: number;
  filter: string[];
  startedAt: string;
  durationMs: number;
  summary: DiffSummary;
  /** The equivalence rules in force (id and why), so a reader of the report knows what was not a difference. */
  equivalences: Array<{ id: string; field: string; why: string }>;
  scenarios: ScenarioDiff[];
  /** Set when a side could not be reached at all (exit code 3). */
  unreachable?: { side: Side; message: string };
}

export type DiffEvent =
  | { type: 'scenario-start'; index: number; total: number; id: string }
  | { type: 'scenario-end'; index: number; total: number; result: ScenarioDiff };
