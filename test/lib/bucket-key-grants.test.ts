import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { ImportPipeline, type ImportPipelineProps } from '../../lib/import-pipeline.js';
import { S3DdbImportStack, type S3DdbImportStackProps } from '../../lib/s3-ddb-import-stack.js';
import { grantsOf, logicalId } from './role-grants.js';

/**
 * An SSE-KMS bucket: readers decrypt, writers generate data keys (the import and summarize write rejects and
 * reports; preflight writes the staged pieces of big compressed objects), on that key only.
 */
const KEY_ARN = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const noBundling = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });

/** Only the KMS grants of a role: the S3 and DynamoDB ones are import-pipeline.test.ts's concern. */
function kmsGrants(template: Template, role: Parameters<typeof grantsOf>[1]): Record<string, unknown[]> {
  return Object.fromEntries(Object.entries(grantsOf(template, role)).filter(([action]) => action.startsWith('kms:')));
}

function expectKeyGrants(template: Template, pipeline: ImportPipeline, keyArn: unknown): void {
  expect(kmsGrants(template, pipeline.preflightFunction.role)).toEqual({
    'kms:Decrypt': [keyArn],
    'kms:GenerateDataKey': [keyArn],
  });
  expect(kmsGrants(template, pipeline.importFunction.role)).toEqual({
    'kms:Decrypt': [keyArn],
    'kms:GenerateDataKey': [keyArn],
  });
  // Summarize also reads back the lanes' relative rejects files it rewrites with absolute lines.
  expect(kmsGrants(template, pipeline.summarizeFunction.role)).toEqual({
    'kms:Decrypt': [keyArn],
    'kms:GenerateDataKey': [keyArn],
  });
}

type InStack<T> = (stack: Stack) => T;

/** A pipeline in a fresh stack on `bucket` (built in that stack). */
function pipelineOn(bucket: InStack<s3.IBucket>, props: InStack<Partial<ImportPipelineProps>> = () => ({})) {
  const stack = new Stack(noBundling(), 'Test');
  const pipeline = new ImportPipeline(stack, 'Pipeline', {
    bucket: bucket(stack),
    tables: [dynamodb.Table.fromTableName(stack, 'Table', 'ngrams')],
    ...props(stack),
  });
  return { stack, pipeline, template: Template.fromStack(stack) };
}

describe('KMS grants for an SSE-KMS bucket', () => {
  it('grants on the key named by bucketKmsKeyArn (the stack, from context)', () => {
    const stack = new S3DdbImportStack(noBundling(), 'Kms', {
      bucketName: 'data-bucket',
      bucketKmsKeyArn: KEY_ARN,
      tableNames: ['ngrams'],
    });
    expectKeyGrants(Template.fromStack(stack), stack.pipeline, KEY_ARN);
  });

  it('grants on the bucketKey prop, not on the bucket key it replaces', () => {
    const { pipeline, template } = pipelineOn(
      (stack) =>
        s3.Bucket.fromBucketAttributes(stack, 'Bucket', {
          bucketName: 'data-bucket',
          encryptionKey: kms.Key.fromKeyArn(stack, 'Old', KEY_ARN.replace('1234abcd', 'ffffffff')),
        }),
      (stack) => ({ bucketKey: kms.Key.fromKeyArn(stack, 'Key', KEY_ARN) }),
    );
    expectKeyGrants(template, pipeline, KEY_ARN);
  });

  it("grants on the bucket's own encryptionKey by default", () => {
    const { stack, pipeline, template } = pipelineOn(
      (s) =>
        new s3.Bucket(s, 'Bucket', {
          encryption: s3.BucketEncryption.KMS,
          enforceSSL: true,
        }),
    );
    const key = (stack.node.findChild('Bucket') as s3.Bucket).encryptionKey!;
    expectKeyGrants(template, pipeline, { 'Fn::GetAtt': [logicalId(key), 'Arn'] });
  });

  it('grants no KMS action for an SSE-S3 bucket', () => {
    const { pipeline, template } = pipelineOn((s) => s3.Bucket.fromBucketName(s, 'Bucket', 'data-bucket'));
    for (const fn of [pipeline.preflightFunction, pipeline.importFunction, pipeline.summarizeFunction]) {
      expect(kmsGrants(template, fn.role)).toEqual({});
    }
  });
});

describe('bucketKmsKeyArn validation', () => {
  const build = (props: Partial<S3DdbImportStackProps>) => () =>
    new S3DdbImportStack(noBundling(), 'Kms', { tableNames: ['ngrams'], ...props });

  it('fails when bucketKmsKeyArn comes without bucketName', () => {
    expect(build({ bucketKmsKeyArn: KEY_ARN })).toThrow(
      `bucketKmsKeyArn needs bucketName (a new bucket uses SSE-S3), got ${KEY_ARN}`,
    );
  });

  it.each([
    ['an alias ARN', 'arn:aws:kms:eu-west-1:111122223333:alias/imports'],
    ['a bare key id', '1234abcd-12ab-34cd-56ef-1234567890ab'],
    ['an S3 ARN', 'arn:aws:s3:::data-bucket'],
  ])('fails when bucketKmsKeyArn is %s', (_, arn) => {
    expect(build({ bucketName: 'data-bucket', bucketKmsKeyArn: arn })).toThrow(
      `bucketKmsKeyArn must be a KMS key ARN like arn:aws:kms:us-east-1:111122223333:key/1234abcd-..., got '${arn}'`,
    );
  });
});

describe('the bucket key reaches the functions and the CLI, so their PUTs can ask for SSE-KMS', () => {
  /** Each function's BUCKET_KMS_KEY_ARN, by construct id (undefined where it is not set). */
  function keyEnvironment(template: Template, pipeline: ImportPipeline): Record<string, unknown> {
    const functions = template.findResources('AWS::Lambda::Function');
    return Object.fromEntries(
      [pipeline.preflightFunction, pipeline.importFunction, pipeline.summarizeFunction].map((fn) => [
        fn.node.id,
        functions[logicalId(fn)].Properties.Environment.Variables.BUCKET_KMS_KEY_ARN,
      ]),
    );
  }

  it('gives every function BUCKET_KMS_KEY_ARN, and the stack a BucketKmsKeyArn output, for an SSE-KMS bucket', () => {
    const stack = new S3DdbImportStack(noBundling(), 'Kms', {
      bucketName: 'data-bucket',
      bucketKmsKeyArn: KEY_ARN,
      tableNames: ['ngrams'],
    });
    const template = Template.fromStack(stack);
    expect(keyEnvironment(template, stack.pipeline)).toEqual({
      PreflightFunction: KEY_ARN,
      ImportFunction: KEY_ARN,
      SummarizeFunction: KEY_ARN,
    });
    template.hasOutput('BucketKmsKeyArn', { Value: KEY_ARN });
  });

  it("uses the bucket's own encryptionKey by default (its ARN, resolved at deploy time)", () => {
    const { stack, pipeline, template } = pipelineOn(
      (s) => new s3.Bucket(s, 'Bucket', { encryption: s3.BucketEncryption.KMS, enforceSSL: true }),
    );
    const key = (stack.node.findChild('Bucket') as s3.Bucket).encryptionKey!;
    const arn = { 'Fn::GetAtt': [logicalId(key), 'Arn'] };
    expect(keyEnvironment(template, pipeline)).toEqual({
      PreflightFunction: arn,
      ImportFunction: arn,
      SummarizeFunction: arn,
    });
    expect(pipeline.bucketKey).toBe(key);
  });

  it('sets neither without a key (SSE-S3): the functions and the CLI send no SSE header', () => {
    const stack = new S3DdbImportStack(noBundling(), 'NoKms', { tableNames: ['ngrams'] });
    const template = Template.fromStack(stack);
    expect(keyEnvironment(template, stack.pipeline)).toEqual({
      PreflightFunction: undefined,
      ImportFunction: undefined,
      SummarizeFunction: undefined,
    });
    expect(Object.keys(template.findOutputs('BucketKmsKeyArn'))).toEqual([]);
  });
});
