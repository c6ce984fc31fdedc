/**
 * `conform/vitest`: run the conformance scenarios as tests inside your own `vitest run`. See docs/vitest.md.
 *
 * @packageDocumentation
 */
export { defineConformSuite, ConformScenarioFailure, type ConformSuite, type ConformTaskMeta } from './define-suite.js';
export {
  DEFAULT_SEED,
  DEFAULT_RUNS,
  DEFAULT_TEST_TIMEOUT_MS,
  DEFAULT_HOOK_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  parseReplayEnv,
  type ConformSuiteOptions,
  type ConformTargetServer,
  type ConformTargetFactory,
  type ConformGrouping,
} from './options.js';
export { scenarioTestName, testNamePattern } from './message.js';
export {
  bundledPaths,
  loadRulesSync,
  loadSuiteSync,
  loadProfileSync,
  findScenarioFilesSync,
  readSourceSync,
  type BundledPaths,
  type LoadedSuite,
  type ScenarioFile,
} from './load-sync.js';
