export { ConformError, InvalidFileError, formatIssue, type ConformErrorCode, type SourceIssue } from './errors.js';
export {
  loadRulesSync,
  loadSuiteSync,
  findScenarioFilesSync,
  checkScenarioSource,
  readSourceSync,
} from './suite/load.js';
export type { Rule, RuleCatalogue, Scenario, Suite } from './suite/types.js';
export { ScenarioFileSchema, RuleFileSchema } from './suite/schema.js';
export { parseYamlSource } from './suite/yaml-source.js';
export { loadProfileSync, checkProfileSource } from './profile/load.js';
export { ProfileSchema, resolveProfile, type ResolvedProfile, type Scheme } from './profile/schema.js';
export { CAPABILITIES, missingCapability } from './profile/capabilities.js';
export {
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  type HttpRequest,
  type HttpResponse,
  type SendResult,
} from './http/client.js';
export {
  runSuite,
  exitCodeFor,
  selectScenarios,
  summarize,
  ruleResults,
  type RunSuiteOptions,
  type RunSuiteDeps,
} from './engine/run-suite.js';
export { scenarioSeed } from './runner/scenario.js';
export { runScenario } from './engine/run-scenario.js';
export { createRedactor, type Redactor } from './runner/redact.js';
export type {
  RunResult,
  ScenarioResult,
  RuleResult,
  RunEvent,
  Exchange,
  ScenarioStatus,
  RuleStatus,
} from './runner/types.js';
export { createConsoleReporter, renderSummary } from './report/console.js';
export { FILE_REPORTERS, REPORTER_NAMES, type FileReporter } from './report/registry.js';
export { createAuthenticator, type Authenticator, type AuthOptions } from './auth/authenticator.js';
export { basicHeader, hmacDigest, hmacHeader, signedMessage, formatSpecDate, bodyHash } from './auth/signers.js';
export { assertSignersAgree, checkSigners, loadAuthVectors } from './auth/vectors.js';
export { GENERATORS } from './generators/registry.js';
