/**
 * What the reference server offers the rest of the repository (the CLI, the tests and the scripts): start it, name its
 * faults and variants, the certificate and the connection limits. Everything else is internal; a unit test imports
 * the module it tests directly.
 */
export { ReferenceServerError } from './errors.js';
export type { RefErrorCode } from './errors.js';
export { startServer, parseFaultNames, UnknownFaultError } from './server.js';
export type { RunningServer, ServerOptions, ResolvedServerOptions } from './server.js';
export { ConnectionGate } from './connections.js';
export { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_CLIENT } from './options.js';
export type { RedisSettings } from './options.js';
export { CLUSTER_FAULTS, FAULTS, FAULT_VARIANTS, SCENARIO_FAULT_NAMES, isClusterFault } from './faults/registry.js';
export type { ClusterFaultName, FaultName, ScenarioFaultName } from './faults/registry.js';
export {
  VARIANTS,
  VARIANT_NAMES,
  VariantError,
  applyProfilePatch,
  combinableVariants,
  parseVariantNames,
  variantProfile,
} from './variants.js';
export type { ProfilePatch, VariantName, VariantSpec } from './variants.js';
export { NonceStore } from './auth/nonces.js';
export { basicAuthorization, signRequest } from './auth/sign.js';
export type { SignInput, SignedHeaders } from './auth/sign.js';
export { generateSelfSignedCertificate } from './tls/certificate.js';
export type { TlsCredentials } from './tls/certificate.js';
export { DEFAULT_PREFIX, PREFIX_PATTERN } from './store/redis/keys.js';
export { RedisEvictionError, displayRedisUrl } from './store/redis/redis.js';
export { judgeClient, CLIENT_RULES } from './client/judge.js';
export { bodyParams } from './client/body-params.js';
export type { ClientJudgeContext, ClientRuleStatus, ClientRuleVerdict, ClientViolation } from './client/judge.js';
export type { ExchangeListener, RecordedExchange } from './recording.js';
