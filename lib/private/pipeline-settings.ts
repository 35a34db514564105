import { Duration, Fn, Token } from 'aws-cdk-lib';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { DEFAULT_REJECTS_PREFIX, DEFAULT_STAGING_PREFIX } from '../../lambdas/environment/config.js';
import { DEFAULT_MAX_CONCURRENCY, MAX_CONCURRENCY, MAX_LAMBDA_TIMEOUT_SECONDS } from '../../lambdas/contract/limits.js';
import type { ImportPipelineProps } from '../import-pipeline-props.js';
import { checkWatch } from '../watched-prefix.js';

/** The props with their defaults applied and checked: what the construct's steps build from. */
export interface PipelineSettings {
  readonly maxConcurrency: number;
  readonly timeout: Duration;
  readonly rejectsPrefix: string;
  readonly stagingPrefix: string;
  /** The import function's reserved concurrency, if any. */
  readonly reserved?: number;
  /** The bucket's KMS key (`bucketKey`, else the bucket's `encryptionKey`), if any: SSE-KMS grants and PUT headers. */
  readonly bucketKey?: kms.IKey;
  /** What every handler reads from its environment (lambdas/environment/config.ts). */
  readonly environment: Readonly<Record<string, string>>;
}

/** Applies the defaults and throws early, in lower case with the bad value shown, on any prop out of range. */
export function resolvePipelineSettings(props: ImportPipelineProps): PipelineSettings {
  const maxConcurrency = checkMaxConcurrency(props.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
  const timeout = checkTimeout(props.timeout ?? Duration.seconds(MAX_LAMBDA_TIMEOUT_SECONDS));
  const rejectsPrefix = checkPrefix('rejectsPrefix', props.rejectsPrefix ?? DEFAULT_REJECTS_PREFIX);
  const stagingPrefix = checkPrefix('stagingPrefix', props.stagingPrefix ?? DEFAULT_STAGING_PREFIX);
  checkApart(rejectsPrefix, stagingPrefix);
  if (props.tables.length === 0) throw new Error('tables must hold at least one table, got none');
  const tableNames = props.tables.map((table) => table.tableName);
  for (const watch of props.watches ?? []) checkWatch(watch, tableNames, rejectsPrefix, stagingPrefix);
  if (props.alarmTopic && !props.failedExecutionAlarm) throw new Error('alarmTopic needs failedExecutionAlarm: true');
  const bucketKey = props.bucketKey ?? props.bucket.encryptionKey;
  return {
    maxConcurrency,
    timeout,
    rejectsPrefix,
    stagingPrefix,
    reserved: checkReservedConcurrency(props.importReservedConcurrency),
    bucketKey,
    environment: {
      REJECTS_PREFIX: rejectsPrefix,
      STAGING_PREFIX: stagingPrefix,
      ALLOWED_TABLES: Fn.join(',', tableNames),
      // The roles hold grants on this bucket only: preflight refuses a request for another by name.
      BUCKET_NAME: props.bucket.bucketName,
      // Every PUT of the functions asks for SSE-KMS with this key (lambdas/wiring/aws-io.ts sseKmsFields).
      ...(bucketKey ? { BUCKET_KMS_KEY_ARN: bucketKey.keyArn } : {}),
    },
  };
}

function checkMaxConcurrency(value: number): number {
  if (Token.isUnresolved(value)) return value;
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    throw new Error(`maxConcurrency must be an integer from 1 to ${MAX_CONCURRENCY}, got ${value}`);
  }
  return value;
}

function checkReservedConcurrency(value: number | undefined): number | undefined {
  if (value === undefined || Token.isUnresolved(value)) return value;
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`importReservedConcurrency must be a positive integer, got ${value}`);
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
