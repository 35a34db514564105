import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { STACK_OUTPUTS } from '../../cli/cloud/aws/stack-outputs.js';
import { S3DdbImportStack } from '../../lib/s3-ddb-import-stack.js';

// Bundling is skipped (cdk-synth.test.ts covers it): the outputs are the same.
const synth = (watches?: { prefix: string; table: string }[]) =>
  Template.fromStack(
    new S3DdbImportStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Outputs', {
      tableNames: ['ngrams'],
      watches,
    }),
  );

describe('the stack outputs the CLI reads (public contract)', () => {
  it('names the state machine, the bucket and the watched prefixes by the names cli/cloud/stack-outputs.ts reads', () => {
    const outputs = synth([{ prefix: 'imports/ngrams/', table: 'ngrams' }]).toJSON().Outputs as Record<
      string,
      { Value: unknown }
    >;

    // BucketKmsKeyArn only with an SSE-KMS bucket (bucket-key-grants.test.ts); this stack's new bucket is SSE-S3.
    // SourceBuckets only with `sources` (trusted/sources.test.ts); the app's stack has none.
    const conditional: string[] = [STACK_OUTPUTS.bucketKmsKeyArn, STACK_OUTPUTS.sourceBuckets];
    const always = Object.values(STACK_OUTPUTS).filter((name) => !conditional.includes(name));
    expect(Object.keys(outputs).sort()).toEqual(always.sort());
    expect(outputs.StateMachineArn.Value).toEqual({ Ref: expect.stringMatching(/^PipelineStateMachine/) });
    expect(outputs.BucketName.Value).toEqual({ Ref: expect.stringMatching(/^Bucket/) });
    expect(outputs.WatchedPrefixes.Value).toBe('["imports/ngrams/"]');
  });

  it('says "[]" when nothing is watched, so the CLI can tell "no watches" from "an older stack"', () => {
    const outputs = synth().toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.WatchedPrefixes.Value).toBe('[]');
  });
});
