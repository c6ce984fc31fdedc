/**
 * Synchronous loading for test-collection time: vitest registers tests while it collects a file, so scenarios must
 * be known synchronously. These are the loaders everyone uses (`spec/load.ts`, `profile/load.ts`), synchronous at
 * their core, so a file is accepted or rejected with exactly the same `file:line:col` messages as by `conform run`.
 */
export { bundledPaths, type BundledPaths } from '../paths.js';
export {
  findScenarioFilesSync,
  loadRulesSync,
  loadSuiteSync,
  readSourceSync,
  type LoadedSuite,
  type ScenarioFile,
} from '../suite/load.js';
export { loadProfileSync } from '../profile/load.js';
