import { describe, expect, it } from 'vitest';
import {
  DEFAULT_IMPORT_MEMORY_MB,
  DEFAULT_LEDGER_TABLE,
  DEFAULT_REJECTS_PREFIX,
  DEFAULT_STAGING_PREFIX,
  DEFAULT_WRITE_CONFIG,
  QUEUE_FIRST_WAIT_SECONDS,
  readLambdaConfig,
  resolveLambdaConfig,
} from '../../../lambdas/environment/config.js';

const KEY_ARN = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
/** What the construct sets on every function (lib/private/pipeline-settings.ts), less what this test ignores. */
const STACK_ENV = { BUCKET_NAME: 'imports-bucket', BUCKET_KMS_KEY_ARN: KEY_ARN };

describe('readLambdaConfig: the stack bucket and its key', () => {
  it('reads BUCKET_NAME and BUCKET_KMS_KEY_ARN inside Lambda (AWS_LAMBDA_FUNCTION_NAME is set)', () => {
    const config = readLambdaConfig({ ...STACK_ENV, AWS_LAMBDA_FUNCTION_NAME: 'S3DdbImport-Preflight' });
    expect(config).toMatchObject({ bucketName: 'imports-bucket', bucketKmsKeyArn: KEY_ARN });
  });

  it('ignores them outside Lambda: a shell variable must not scope a local run or send SSE-KMS to a local S3', () => {
    expect(readLambdaConfig(STACK_ENV)).toMatchObject({ bucketName: null, bucketKmsKeyArn: null });
  });

  it('leaves both unset when the construct set none (a bucket without a KMS key has no BUCKET_KMS_KEY_ARN)', () => {
    const config = readLambdaConfig({ AWS_LAMBDA_FUNCTION_NAME: 'f', BUCKET_NAME: ' ' });
    expect(config).toMatchObject({ bucketName: null, bucketKmsKeyArn: null });
  });
});

describe('readLambdaConfig: may preflight pre-warm a table', () => {
  it.each<[string, Record<string, string>, boolean]>([
    // The stack grants dynamodb:UpdateTable only with allowWarmThroughput, and then says so.
    ['inside Lambda, the stack allowing it', { AWS_LAMBDA_FUNCTION_NAME: 'f', WARM_THROUGHPUT_ALLOWED: 'true' }, true],
    ['inside Lambda, the stack saying nothing (no UpdateTable grant)', { AWS_LAMBDA_FUNCTION_NAME: 'f' }, false],
    // Local runs and the CLI use the caller's own credentials.
    ['outside Lambda', {}, true],
  ])('%s: %j', (_, env, allowed) => {
    expect(readLambdaConfig(env).warmThroughputAllowed).toBe(allowed);
  });
});

describe('resolveLambdaConfig: every default applied once', () => {
  it('fills what the environment leaves unset, and keeps what it sets', () => {
    expect(resolveLambdaConfig(readLambdaConfig({}))).toMatchObject({
      rejectsPrefix: DEFAULT_REJECTS_PREFIX,
      stagingPrefix: DEFAULT_STAGING_PREFIX,
      importMemoryMb: DEFAULT_IMPORT_MEMORY_MB,
      ledgerTable: DEFAULT_LEDGER_TABLE,
      queueFirstWaitSeconds: QUEUE_FIRST_WAIT_SECONDS,
      write: DEFAULT_WRITE_CONFIG,
      bucketName: null,
      bucketKmsKeyArn: null,
      warmThroughputAllowed: true,
    });
    const env = { STAGING_PREFIX: 'stage/', IMPORT_MEMORY_MB: '3008', LEDGER_TABLE: 'ledger' };
    expect(resolveLambdaConfig(readLambdaConfig(env))).toMatchObject({
      stagingPrefix: 'stage',
      importMemoryMb: 3008,
      ledgerTable: 'ledger',
    });
  });

  it('keeps a caller’s own setting, such as the local runner’s first wait for lanes', () => {
    const input = { rejectsPrefix: 'r', allowedTables: null, queueFirstWaitSeconds: 1 };
    expect(resolveLambdaConfig(input).queueFirstWaitSeconds).toBe(1);
  });
});
