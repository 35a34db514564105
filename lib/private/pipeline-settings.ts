import { Duration, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { DEFAULT_REJECTS_PREFIX, DEFAULT_STAGING_PREFIX } from '../../lambdas/environment/settings.js';
import { DEFAULT_MAX_CONCURRENCY, MAX_CONCURRENCY, MAX_LAMBDA_TIMEOUT_SECONDS } from '../../lambdas/contract/limits.js';
import type { ImportPipelineProps } from '../import-pipeline-props.js';
import { checkSameRegion, resolveSources, sourceBucketsSetting, type ResolvedSource } from '../import-source.js';
import { pipelineEnvironment } from './pipeline-environment.js';
import { checkWatch, type WatchedPrefix } from '../watched-prefix.js';
import { resolveWatches } from './pipeline-watches.js';

/** The props with their defaults applied and checked: what the construct's steps build from. */
export interface PipelineSettings {
  readonly maxConcurrency: number;
  readonly timeout: Duration;
  readonly rejectsPrefix: string;
  readonly stagingPrefix: string;
  /** The import function's reserved concurrency, if any. */
  readonly reserved?: number;
  /** The preflight function's reserved concurrency, if any: how many imports scan at once. */
  readonly preflightReserved?: number;
  /** The buckets imports may read besides `bucket` (`sources`), keys resolved. */
  readonly sources: readonly ResolvedSource[];
  /** The watches, each naming its table by name (`tableRef` resolved). */
  readonly watches: readonly WatchedPrefix[];
  /** The bucket's KMS key (`bucketKey`, else the bucket's `encryptionKey`), if any: SSE-KMS grants and PUT headers. */
  readonly bucketKey?: kms.IKey;
  /** How long staged pieces a failed import left behind are kept (the staging lifecycle rule). */
  readonly stagingExpiration: Duration;
  /** What every handler reads from its environment (lambdas/environment/config.ts). */
  readonly environment: Readonly<Record<string, string>>;
}

/** Applies the defaults and throws early, in lower case with the bad value shown, on any prop out of range. */
export function resolvePipelineSettings(scope: Construct, props: ImportPipelineProps): PipelineSettings {
  const maxConcurrency = checkMaxConcurrency(props.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
  const timeout = checkTimeout(props.timeout ?? Duration.seconds(MAX_LAMBDA_TIMEOUT_SECONDS));
  const rejectsPrefix = checkPrefix('rejectsPrefix', props.rejectsPrefix ?? DEFAULT_REJECTS_PREFIX);
  const stagingPrefix = checkPrefix('stagingPrefix', props.stagingPrefix ?? DEFAULT_STAGING_PREFIX);
  checkApart(rejectsPrefix, stagingPrefix);
  if (props.tables.length === 0) throw new Error('tables must hold at least one table, got none');
  const tableNames = props.tables.map((table) => table.tableName);
  const watches = resolveWatches(props.watches, props.tables);
  for (const watch of watches) checkWatch(watch, tableNames, rejectsPrefix, stagingPrefix);
  if (props.alarmTopic && !props.failedExecutionAlarm) throw new Error('alarmTopic needs failedExecutionAlarm: true');
  const bucketKey = props.bucketKey ?? props.bucket.encryptionKey;
  checkSameRegion(scope, 'bucket', props.bucket.env.region);
  if (bucketKey) checkSameRegion(scope, 'bucketKey', bucketKey.env.region);
  const sources = resolveSources(scope, props.sources);
  return {
    sources,
    watches,
    preflightReserved: checkReservedConcurrency('preflightReservedConcurrency', props.preflightReservedConcurrency),
    maxConcurrency,
    timeout,
    rejectsPrefix,
    stagingPrefix,
    reserved: checkReservedConcurrency('importReservedConcurrency', props.importReservedConcurrency),
    bucketKey,
    stagingExpiration: checkStagingExpiration(props.stagingExpiration ?? DEFAULT_STAGING_EXPIRATION),
    environment: pipelineEnvironment(scope, {
      rejectsPrefix,
      stagingPrefix,
      allowedTables: tableNames,
      // The roles hold grants on this bucket only: preflight refuses a request for another by name.
      bucketName: props.bucket.bucketName,
      // Every PUT of the functions asks for SSE-KMS with this key (lambdas/wiring/aws-io.ts sseKmsFields).
      bucketKmsKeyArn: bucketKey?.keyArn ?? null,
      // The other buckets a request may name, and the account each must belong to (ExpectedBucketOwner).
      ...(sources.length > 0 ? { sourceBuckets: sourceBucketsSetting(sources) } : {}),
    }),
  };
}

/**
 * Step Functions redrives a failed (or aborted, or timed-out) standard execution within 14 days of its end: "Restarts
 * unsuccessful executions of Standard workflows that didn't complete successfully in the last 14 days"
 * (https://docs.aws.amazon.com/step-functions/latest/apireference/API_RedriveExecution.html); a failed Map Run is
 * redriven through its parent execution. A redriven chunk of a staged object reads its staged piece again, so a piece
 * must outlive the window.
 */
export const REDRIVE_WINDOW_DAYS = 14;

/**
 * Staged pieces are kept 21 days by default: they are written at the start (preflight's scan) and must last until the
 * end of the redrive window, which runs from the failed execution's end. The longest import before it fails
 * (lambdas/contract/limits.ts): up to 1 day waiting for lanes + 4 days for one chunk + 16 h paused ≈ 5.7 days; + the
 * 14-day window ≈ 19.7 days, so 21 keeps a day to spare (S3 also rounds each expiry up to the next midnight UTC).
 */
export const DEFAULT_STAGING_EXPIRATION = Duration.days(21);

function checkMaxConcurrency(value: number): number {
  if (Token.isUnresolved(value)) return value;
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    throw new Error(`maxConcurrency must be an integer from 1 to ${MAX_CONCURRENCY}, got ${value}`);
  }
  return value;
}

function checkReservedConcurrency(name: string, value: number | undefined): number | undefined {
  if (value === undefined || Token.isUnresolved(value)) return value;
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`${name} must be a positive integer, got ${value}`);
  }
  return value;
}

/** At least the redrive window, in whole days (an S3 lifecycle rule expires objects after a number of days). */
function checkStagingExpiration(value: Duration): Duration {
  if (value.isUnresolved()) return value;
  const days = value.toDays({ integral: false });
  if (!Number.isInteger(days) || days < REDRIVE_WINDOW_DAYS) {
    throw new Error(
      `stagingExpiration must be a whole number of days, at least ${REDRIVE_WINDOW_DAYS} (a failed import can be ` +
        `redriven for ${REDRIVE_WINDOW_DAYS} days, and its redriven chunks read their staged pieces again), ` +
        `got ${value.toHumanString()}`,
    );
  }
  return value;
}

function checkTimeout(value: Duration): Duration {
  if (value.isUnresolved()) return value;
  const seconds = value.toSeconds();
  if (seconds < 1 || seconds > MAX_LAMBDA_TIMEOUT_SECONDS) {
    throw new Error(`timeout must be from 1 to ${MAX_LAMBDA_TIMEOUT_SECONDS} seconds, got ${seconds} seconds`);
  }
  return value;
}

/** Normalises 'a/b/' to 'a/b'; the functions and the grants both append '/<execution>/...'. */
function checkPrefix(name: string, value: string): string {
  const prefix = value.replace(/\/+$/, '');
  if (prefix === '' || prefix.startsWith('/') || prefix.includes('*')) {
    throw new Error(`${name} must be a key prefix like 'imports/rejects', got '${value}'`);
  }
  return prefix;
}

/** Rejects and staged pieces must not share a folder: the CLI copies a rejects folder whole, and grants differ. */
function checkApart(rejectsPrefix: string, stagingPrefix: string): void {
  if (Token.isUnresolved(rejectsPrefix) || Token.isUnresolved(stagingPrefix)) return;
  const within = (a: string, b: string) => a === b || a.startsWith(`${b}/`);
  if (within(rejectsPrefix, stagingPrefix) || within(stagingPrefix, rejectsPrefix)) {
    throw new Error(
      `stagingPrefix and rejectsPrefix must not contain each other, got '${stagingPrefix}' and '${rejectsPrefix}'`,
    );
  }
}
