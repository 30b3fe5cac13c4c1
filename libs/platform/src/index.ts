// Public surface of @gatehouse/platform: config, logging, errors, metrics, health, HTTP and shutdown helpers
// shared by every app, and the one way an app is built (createServiceApp: Nest on Fastify; runService: main).
export {
  configFieldRegistry,
  resolveFieldMeta,
  secret,
  typeLabel,
  type ConfigFieldMeta,
  type ResolvedFieldMeta,
} from './config/config-field.js';
export {
  LOG_LEVELS,
  NODE_ENVS,
  hostField,
  httpUrlField,
  identifierField,
  integerField,
  ipListField,
  isIpOrCidr,
  isLoopbackUrl,
  logLevelField,
  nodeEnvField,
  portField,
  postgresUrlField,
  processConfigShape,
  redisUrlField,
  shutdownGraceField,
  type LogLevel,
  type NodeEnv,
} from './config/config-fields.js';
export {
  accountInPasswd,
  childUserField,
  readChildUser,
  refuseChildUserSelfInProduction,
  type ChildAccount,
  type ChildUser,
} from './config/child-user-field.js';
export { childProcessConfigShape } from './config/child-process.config.js';
export {
  formatConfigIssues,
  loadConfigOrExit,
  parseConfig,
  type ConfigIssue,
  type ConfigSchema,
  type Env,
  type Exit,
  type ParseConfigResult,
  type WriteLine,
} from './config/parse-config.js';
export {
  describeConfig,
  renderConfigTable,
  secretConfigKeys,
  secretConfigValues,
  type ConfigRow,
} from './config/describe-config.js';
export { REDACTED, createLogger, type CreateLoggerOptions, type Logger } from './logger/create-logger.js';
export { SENSITIVE_CONTAINERS, SENSITIVE_KEYS, SENSITIVE_SUFFIXES } from './logger/sensitive-names.js';
export { secretFragments } from './logger/secret-values.js';
export { NestLoggerAdapter } from './logger/nest-logger-adapter.js';
export {
  PROBLEM_CONTENT_TYPE,
  ProblemError,
  problemJson,
  problemTypeUri,
  type ProblemDocument,
  type ProblemInit,
} from './errors/problem-error.js';
export { DEPENDENCY_RETRY_AFTER_SECONDS, toProblem, type MappedProblem } from './errors/problem-mapping.js';
export { logMappedProblem, problemHeaders } from './http/problem-reply.js';
export { BootRefusedError } from './errors/boot-refused-error.js';
export {
  HTTP_REQUEST_DURATION_METRIC,
  createHttpMetrics,
  createMetricsRegistry,
  type CreateMetricsRegistryOptions,
  type HttpMetrics,
  type HttpObservation,
  type Registry,
} from './metrics/metrics-registry.js';
export {
  HealthChecks,
  type CheckResult,
  type HealthCheck,
  type HealthChecksOptions,
  type HealthReport,
} from './health/health-checks.js';
export { httpCheck, redisCheck, type PingableRedis } from './health/readiness-checks.js';
export {
  DEFAULT_QUIET_ROUTES,
  installHttpObservability,
  type HttpObservabilityOptions,
} from './http/http-observability.js';
export { installConnectionDraining } from './http/connection-draining.js';
export { installProblemJsonHandlers } from './http/problem-json-handlers.js';
export { webRequestOf, writeWebResponse } from './http/web-exchange.js';
export { serveFetchHandler } from './http/fetch-handler-server.js';
export type { FetchHandler, ServedFetchHandler } from './http/fetch-handler-server.js';
export { installGracefulShutdown, type GracefulShutdownOptions } from './lifecycle/graceful-shutdown.js';
export {
  createServiceApp,
  type ServiceAppOptions,
  type ServiceFastifyOptions,
} from './app/create-service-app.js';
export { runService, type ListeningService, type RunServiceOptions } from './app/run-service.js';
export {
  OperationalModule,
  READINESS_TIMEOUT_MS,
  type OperationalModuleOptions,
} from './app/operational.module.js';
export { ProblemJsonExceptionFilter } from './app/problem-json-exception-filter.js';
export { LOGGER, METRICS_REGISTRY, REDIS } from './app/platform-tokens.js';
export type { ClosableResource } from './app/close-resources.js';
