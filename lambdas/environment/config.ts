import { LEASE_RENEW_MS } from '../admission/ledger.js';
import { DEFAULT_WRITE_RETRY, type RetryPolicy } from '../retry/backoff.js';
import { readSettings, resolveSettings, type SettingValues } from './settings.js';

export {
  DEFAULT_IMPORT_MEMORY_MB,
  DEFAULT_LEDGER_TABLE,
  DEFAULT_REJECTS_PREFIX,
  DEFAULT_STAGING_PREFIX,
} from './settings.js';

/** How the import writes: what its stop margin is derived from (write/stop-margin.ts). */
export interface WriteConfig {
  /** The BatchWriter's retry ladder for throttles, unprocessed items and transient errors. */
  readonly retry: RetryPolicy;
  /** The DynamoDB client's per-request timeout (its HTTP handler's `requestTimeout`). */
  readonly requestTimeoutMs: number;
}

/**
 * 5 s per DynamoDB request: a BatchWriteItem answers in tens of ms, and even 16 MB (its largest) goes out
 * in well under a second; 5 s also covers the local runner, where all chunks share one client and a
 * request can queue for a socket behind hundreds of others.
 */
export const DEFAULT_WRITE_CONFIG: WriteConfig = { retry: DEFAULT_WRITE_RETRY, requestTimeoutMs: 5_000 };

/**
 * The functions' configuration: every setting of the table (settings.ts SETTINGS), and those only callers pass (local
 * runs, tests). Callers may leave out all but `rejectsPrefix` and `allowedTables`: resolveLambdaConfig fills them.
 */
export type LambdaConfig = Pick<SettingValues, 'rejectsPrefix' | 'allowedTables'> &
  Partial<Omit<SettingValues, 'rejectsPrefix' | 'allowedTables'>> &
  CallerSettings;

/** Settings no environment variable carries: local runs and tests pass them. */
export interface CallerSettings {
  /** How often a running lane renews its lease and reads the live settings. @default LEASE_RENEW_MS (5 s) */
  readonly liveSettingsIntervalMs?: number;
  /** The first PausedWait of a paused chunk. @default FIRST_PAUSED_WAIT_SECONDS (10 s) */
  readonly pausedFirstWaitSeconds?: number;
  /** The first wait of an import waiting for lanes. @default QUEUE_FIRST_WAIT_SECONDS */
  readonly queueFirstWaitSeconds?: number;
  /**
   * The part size of the rejects files' multipart uploads (wiring/s3-stream-upload.ts); tests pass the least S3
   * takes, 5 MiB, to see several parts. @default DEFAULT_PART_BYTES (8 MiB)
   */
  readonly rejectsPartBytes?: number;
  /** Tests and benchmarks pass a faster ladder; deployed handlers use the default. @default DEFAULT_WRITE_CONFIG */
  readonly write?: WriteConfig;
}

/** The first wait for lanes; each next one doubles, up to preflight/import-queue.ts QUEUE_MAX_WAIT_SECONDS. */
export const QUEUE_FIRST_WAIT_SECONDS = 5;

/**
 * A paused chunk asks again after 10 s first (then twice the last, up to admission/live-settings-follower.ts
 * MAX_PAUSED_WAIT_SECONDS): each ask costs its child execution 9+ history events.
 */
export const FIRST_PAUSED_WAIT_SECONDS = 10;

/**
 * Parts of 8 MiB for the rejects files' uploads: an object written this way holds what one invocation rejected or one
 * rejects file rewritten, and 10,000 parts (S3's most, https://docs.aws.amazon.com/AmazonS3/latest/userguide/qfacts.html)
 * x 8 MiB = 80 GB is far more than one invocation can read in 15 minutes.
 */
export const DEFAULT_PART_BYTES = 8 * 1024 * 1024;

/** A LambdaConfig with every default applied (resolveLambdaConfig): its fields are all set, code applies none again. */
export type ResolvedLambdaConfig = LambdaConfig & SettingValues & Required<CallerSettings>;

/**
 * Applies the defaults of every setting a caller left out, once, where the handlers are built (the smithy way:
 * input config, resolve, a resolved config whose fields are all set): the table's (settings.ts), then the callers'.
 * The staging prefix loses its trailing slashes.
 *
 * @example
 * resolveLambdaConfig({ rejectsPrefix: 'rejects/', allowedTables: null }).stagingPrefix; // 's3-ddb-import/staging'
 */
export function resolveLambdaConfig(input: LambdaConfig): ResolvedLambdaConfig {
  const settings = resolveSettings(input);
  return {
    ...input,
    ...settings,
    stagingPrefix: settings.stagingPrefix.replace(/\/+$/, ''),
    liveSettingsIntervalMs: input.liveSettingsIntervalMs ?? LEASE_RENEW_MS,
    pausedFirstWaitSeconds: input.pausedFirstWaitSeconds ?? FIRST_PAUSED_WAIT_SECONDS,
    queueFirstWaitSeconds: input.queueFirstWaitSeconds ?? QUEUE_FIRST_WAIT_SECONDS,
    rejectsPartBytes: input.rejectsPartBytes ?? DEFAULT_PART_BYTES,
    write: input.write ?? DEFAULT_WRITE_CONFIG,
  };
}

/**
 * The configuration the function's environment gives, each variable read once per container as the settings table
 * declares it (settings.ts readSettings: the stack's bucket and key are read inside Lambda only, so a BUCKET_NAME
 * left in a developer's shell scopes no local run), with the table's defaults for what it leaves unset.
 */
export function readLambdaConfig(env: NodeJS.ProcessEnv = process.env): LambdaConfig {
  return resolveSettings(readSettings(env));
}
