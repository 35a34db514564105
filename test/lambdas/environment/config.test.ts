import { describe, expect, it } from 'vitest';
import { readLambdaConfig } from '../../../lambdas/environment/config.js';

const KEY_ARN = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
/** What the construct sets on every function (lib/private/pipeline-settings.ts), less what this test ignores. */
const STACK_ENV = { BUCKET_NAME: 'imports-bucket', BUCKET_KMS_KEY_ARN: KEY_ARN };

describe('readLambdaConfig: the stack bucket and its key', () => {
  it('reads BUCKET_NAME and BUCKET_KMS_KEY_ARN inside Lambda (AWS_LAMBDA_FUNCTION_NAME is set)', () => {
    const config = readLambdaConfig({ ...STACK_ENV, AWS_LAMBDA_FUNCTION_NAME: 'S3DdbImport-Preflight' });
    expect(config).toMatchObject({ bucketName: 'imports-bucket', bucketKmsKeyArn: KEY_ARN });
  });

  it('ignores them outside Lambda: a shell variable must not scope a local run or send SSE-KMS to MinIO', () => {
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
