import { DEFAULT_WRITE_RETRY, type RetryPolicy } from '../retry/backoff.js';

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

/** Lambda configuration from environment variables, read once per container. */
export interface LambdaConfig {
  /** Rejects and reports go to s3://<bucket>/<rejectsPrefix>/<execution>/. */
  readonly rejectsPrefix: string;
  /**
   * Staged pieces of big compressed objects go to s3://<bucket>/<stagingPrefix>/<execution>/ (STAGING_PREFIX).
   * @default DEFAULT_STAGING_PREFIX
   */
  readonly stagingPrefix?: string;
  /** Tables this deployment may write; a request for another fails in preflight with a clear error. */
  readonly allowedTables: readonly string[] | null;
  /**
   * The bucket this deployment reads (BUCKET_NAME, set by the construct): the roles hold grants on it only, so a
   * request for another fails in preflight with a clear error instead of a bare 403. Read inside Lambda only.
   * @default null - unchecked (local runs)
   */
  readonly bucketName?: string | null;
  /**
   * The import function's memory in MB (IMPORT_MEMORY_MB, set by the construct on preflight): a Parquet row group
   * too big to import in it fails in preflight, before any write. @default DEFAULT_IMPORT_MEMORY_MB
   */
  readonly importMemoryMb?: number;
  /** The import function, whose Lambda concurrency preflight fits the Map's lanes to (IMPORT_FUNCTION_NAME). */
  readonly importFunctionName?: string | null;
  /**
   * The import function's reserved concurrency as the stack set it (IMPORT_RESERVED_CONCURRENCY, on preflight): the
   * lanes' bound, known at deploy time, so preflight need not ask the Lambda API for it. Read inside Lambda only.
   * @default null - unknown: asked of the Lambda API (environment/deploy-time-concurrency.ts)
   */
  readonly importReservedConcurrency?: number | null;
  /** The DynamoDB table of running imports (LEDGER_TABLE): lanes held, leases, live settings. @default DEFAULT_LEDGER_TABLE */
  readonly ledgerTable?: string;
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
  /**
   * Write the import's EMF metric lines to stdout (observability/metrics.ts). On inside Lambda, where CloudWatch
   * Logs turns them into metrics; off elsewhere, where they would only clutter the CLI's stdout.
   * @default false
   */
  readonly emitMetrics?: boolean;
  /**
   * The ARN of the bucket's KMS key (BUCKET_KMS_KEY_ARN), set by the construct when the bucket has one. Every PUT
   * the functions make (staged pieces, rejects, the report) then asks for SSE-KMS with this key, so a bucket policy
   * that denies PutObject without `x-amz-server-side-encryption: aws:kms` (or without this key) lets them through.
   * Read inside Lambda only.
   * @default null - no encryption headers: the bucket's default encryption applies
   */
  readonly bucketKmsKeyArn?: string | null;
  /**
   * May preflight raise a table's warm throughput for a request's warmThroughput (UpdateTable)? Inside Lambda only when
   * the stack allows it (WARM_THROUGHPUT_ALLOWED=true, set by the construct with `allowWarmThroughput`, which also
   * grants dynamodb:UpdateTable); elsewhere (local runs, the CLI) the caller's own credentials decide.
   * @default true
   */
  readonly warmThroughputAllowed?: boolean;
}

/** The ledger of running imports locally (the stack names its own table through LEDGER_TABLE). */
export const DEFAULT_LEDGER_TABLE = 's3-ddb-import-ledger';

/** 1,769 MB buys one full vCPU (https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html). */
export const DEFAULT_IMPORT_MEMORY_MB = 1769;

export const DEFAULT_REJECTS_PREFIX = 's3-ddb-import/rejects';
export const DEFAULT_STAGING_PREFIX = 's3-ddb-import/staging';

/** The first wait for lanes; each next one doubles, up to preflight/import-queue.ts QUEUE_MAX_WAIT_SECONDS. */
export const QUEUE_FIRST_WAIT_SECONDS = 5;

/** The settings whose defaults live here: a ResolvedLambdaConfig holds every one of them. */
type ResolvedHere =
  | 'stagingPrefix'
  | 'bucketName'
  | 'importMemoryMb'
  | 'importFunctionName'
  | 'importReservedConcurrency'
  | 'ledgerTable'
  | 'queueFirstWaitSeconds'
  | 'write'
  | 'emitMetrics'
  | 'bucketKmsKeyArn'
  | 'warmThroughputAllowed';

/** A LambdaConfig with every default applied (resolveLambdaConfig): code that reads one applies none again. */
export type ResolvedLambdaConfig = LambdaConfig & Required<Pick<LambdaConfig, ResolvedHere>>;

/**
 * Applies the defaults of every setting a caller left out, once, where the handlers are built (the smithy way:
 * input config, resolve, a resolved config whose fields are all set). The staging prefix loses its trailing slashes.
 *
 * @example
 * resolveLambdaConfig({ rejectsPrefix: 'rejects/', allowedTables: null }).stagingPrefix; // 's3-ddb-import/staging'
 */
export function resolveLambdaConfig(input: LambdaConfig): ResolvedLambdaConfig {
  return {
    ...input,
    stagingPrefix: (input.stagingPrefix ?? DEFAULT_STAGING_PREFIX).replace(/\/+$/, ''),
    bucketName: input.bucketName ?? null,
    importMemoryMb: input.importMemoryMb ?? DEFAULT_IMPORT_MEMORY_MB,
    importFunctionName: input.importFunctionName ?? null,
    importReservedConcurrency: input.importReservedConcurrency ?? null,
    ledgerTable: input.ledgerTable ?? DEFAULT_LEDGER_TABLE,
    queueFirstWaitSeconds: input.queueFirstWaitSeconds ?? QUEUE_FIRST_WAIT_SECONDS,
    write: input.write ?? DEFAULT_WRITE_CONFIG,
    emitMetrics: input.emitMetrics ?? false,
    bucketKmsKeyArn: input.bucketKmsKeyArn ?? null,
    warmThroughputAllowed: input.warmThroughputAllowed ?? true,
  };
}

/**
 * The configuration the function's environment gives (each variable read once per container), defaults not yet
 * applied to what it leaves unset: resolveLambdaConfig applies them.
 */
export function readLambdaConfig(env: NodeJS.ProcessEnv = process.env): LambdaConfig {
  const allowed = env.ALLOWED_TABLES?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  // Lambda sets AWS_LAMBDA_FUNCTION_NAME in every function's environment (a reserved variable):
  // https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime
  const inLambda = Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
  // The stack's bucket and key are read inside Lambda only: a BUCKET_NAME left in a developer's shell must not
  // scope local runs (which read this same config) to another bucket, nor send SSE-KMS headers to a local S3.
  const deployed = (value: string | undefined) => (inLambda && value?.trim()) || null;
  const set = (value: string | undefined) => value?.trim() || undefined;
  return {
    // The one setting every caller gives: the rejects of a run without it go to the default.
    rejectsPrefix: set(env.REJECTS_PREFIX) ?? DEFAULT_REJECTS_PREFIX,
    ...defined('stagingPrefix', set(env.STAGING_PREFIX)),
    allowedTables: allowed && allowed.length > 0 ? allowed : null,
    bucketName: deployed(env.BUCKET_NAME),
    importFunctionName: set(env.IMPORT_FUNCTION_NAME) ?? null,
    ...defined('importMemoryMb', Number(env.IMPORT_MEMORY_MB) > 0 ? Number(env.IMPORT_MEMORY_MB) : undefined),
    importReservedConcurrency: positiveInteger(deployed(env.IMPORT_RESERVED_CONCURRENCY)),
    ...defined('ledgerTable', set(env.LEDGER_TABLE)),
    bucketKmsKeyArn: deployed(env.BUCKET_KMS_KEY_ARN),
    emitMetrics: inLambda,
    warmThroughputAllowed: !inLambda || env.WARM_THROUGHPUT_ALLOWED === 'true',
  };
}

/** `{ [field]: value }` when the environment sets it, else nothing (resolveLambdaConfig applies its default). */
function defined<K extends keyof LambdaConfig>(field: K, value: LambdaConfig[K] | undefined) {
  return value === undefined ? {} : { [field]: value };
}

/** A whole number above 0 from the environment, else null. */
function positiveInteger(value: string | null): number | null {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n > 0 ? n : null;
}
