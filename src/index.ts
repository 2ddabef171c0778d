// The library entry point (`require('agent-session')` / `import … from 'agent-session'`): re-exports only.
export { openStore, shouldResume, type OpenStoreOptions, type ResumeAnswer } from './app/library';
export {
  Sessions,
  type SessionsOptions,
  type ResumeDecision,
  type ListEntry,
  type ListFilter,
  type CleanupResult,
  OtherProjectError,
} from './service/sessions';
export { FileStore, type FileStoreOptions } from './store/file-store';
export { MemoryStore, type MemoryStoreOptions } from './store/memory-store';
export { resolveRoot } from './app/call';
export type { SessionStore, ListedSession, ListScope } from './service/store';
export {
  DEFAULT_PROJECT,
  normalizeRemoteUrl,
  withProject,
  type ProjectIdentity,
  type ProjectSource,
} from './core/project';
export { SessionError, isSessionError, EXIT_CODES, type ErrorCode } from './core/errors';
export {
  PHASES,
  FINAL_PHASES,
  RESUMABLE_PHASES,
  isPhase,
  isFinalPhase,
  type Phase,
  type FinalPhase,
  type WorkPhase,
} from './core/phase-names';
export { allowedTargets } from './core/phases';
export { allowsResume, type ResumeReason } from './core/rules';
export { DEFAULT_LIMITS, type Limits } from './core/limits';
export {
  SCHEMA_VERSION,
  DECISIONS_SCHEMA_VERSION,
  DECISION_ORIGIN_SCHEMA_VERSION,
  PROJECT_SCHEMA_VERSION,
  INTERRUPTION_SCHEMA_VERSION,
  parseState,
  type SessionState,
  type HistoryEntry,
  type Metadata,
  type Decision,
  type RecordedOrigin,
  type Interruption,
} from './core/state';
export { isInterrupted, INTERRUPTION_KINDS } from './core/interruption';
export type { DecisionOrigin } from './core/origin';
export type { ApproveInput, RejectInput } from './core/decision';
export { SessionStateSchema } from './core/state-schema';
export { ID_PATTERN, isValidId } from './core/ids';
export { DEFAULT_HISTORY_CAP, capHistory, resumeCount } from './core/history';
export {
  CONFIG_KEYS,
  CONFIG_VARIABLES,
  DEFAULT_CONFIG,
  LOG_LEVELS,
  resolveConfig,
  type Config,
  type ConfigKey,
  type ConfigSource,
  type EffectiveConfig,
  type LogLevel,
} from './core/config';
export { loadConfig, configPathFor } from './app/call';
export { computeStats, parseSince, type Stats, type StatsGroup } from './core/views/stats';
export { EXPORT_FORMAT, parseExport, toExport, type ExportDocument } from './core/transfer';
export {
  agentSessionHooks,
  RECORD_TOOL,
  SDK_SERVER_NAME,
  type AgentSessionHooks,
  type AgentSessionHooksOptions,
  type AgentSdkToolKit,
  type SdkHookCallback,
  type SdkHookMatcher,
  type SdkHookOutput,
} from './hooks/hosts/agent-sdk';
export {
  opencodePlugin,
  type OpencodeHooks,
  type OpencodePluginInput,
  type OpencodePluginOptions,
} from './hooks/hosts/opencode-plugin';
