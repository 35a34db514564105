import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { ImportPipeline, type ImportPipelineProps } from '../../../lib/import-pipeline.js';
import { grantsOf } from '../role-grants.js';

const ENV = { account: '111111111111', region: 'eu-west-1' };
const PARTNER_KEY = 'arn:aws:kms:eu-west-1:222222222222:key/1234abcd-12ab-34cd-56ef-1234567890ab';

/** A stack in a known account and Region holding one pipeline; bundling skipped (cdk-synth.test.ts covers it). */
function pipelineStack(
  props: (stack: Stack) => Partial<ImportPipelineProps>,
  env: { region?: string } = ENV,
  then: (pipeline: ImportPipeline) => void = () => {},
) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Sources', { env: env.region ? { ...ENV, ...env } : undefined });
  const bucket = s3.Bucket.fromBucketName(stack, 'Own', 'own-bucket');
  const tables = [dynamodb.Table.fromTableName(stack, 'Orders', 'orders')];
  const pipeline = new ImportPipeline(stack, 'Pipeline', { bucket, tables, dashboard: false, ...props(stack) });
  then(pipeline);
  return { stack, pipeline, template: Template.fromStack(stack) };
}

/** Two partner buckets: one in another account with its KMS key, one of this account with no owner check. */
const partnerSources = (stack: Stack) => ({
  sources: [
    {
      bucket: s3.Bucket.fromBucketName(stack, 'Partner', 'partner-exports'),
      key: kms.Key.fromKeyArn(stack, 'PartnerKey', PARTNER_KEY),
      expectedOwner: '222222222222',
    },
    { bucket: s3.Bucket.fromBucketName(stack, 'Archive', 'archive-bucket') },
  ],
});

const objectsOf = (bucket: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::${bucket}/*`]] });
const arnOf = (bucket: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::${bucket}`]] });

describe('sources: buckets beyond the stack bucket (issue 38)', () => {
  const { pipeline, template, stack } = pipelineStack(partnerSources);

  it.each(['preflightFunction', 'importFunction'] as const)(
    'lets %s read each source and decrypt its key, nothing more',
    (fn) => {
      const grants = grantsOf(template, pipeline[fn].role);
      for (const bucket of ['partner-exports', 'archive-bucket']) {
        expect(grants['s3:GetObject']).toContainEqual(objectsOf(bucket));
        expect(grants['s3:ListBucket']).toContainEqual(arnOf(bucket));
      }
      expect(grants['kms:Decrypt']).toContainEqual(PARTNER_KEY);
      // No write of any kind names a source: rejects, reports and staged pieces go to the stack bucket.
      const written = Object.entries(grants).filter(
        ([action]) => !/^(s3:GetObject|s3:ListBucket|kms:Decrypt)$/.test(action),
      );
      expect(JSON.stringify(written)).not.toMatch(/partner-exports|archive-bucket|1234abcd/);
    },
  );

  it('grants the summarize function nothing on a source', () => {
    expect(JSON.stringify(grantsOf(template, pipeline.summarizeFunction.role))).not.toMatch(/partner-exports|archive/);
  });

  it('tells the functions which buckets a request may name, and the owner each must have', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          BUCKET_NAME: 'own-bucket',
          SOURCE_BUCKETS: JSON.stringify([
            { bucket: 'partner-exports', expectedOwner: '222222222222' },
            { bucket: 'archive-bucket', expectedOwner: null },
          ]),
        }),
      },
    });
  });

  it("notes at synth the bucket-policy and key-policy statements the other account's owner must add", () => {
    const principal = { AWS: `arn:aws:iam::${ENV.account}:root` };
    const bucketPolicy = {
      Statement: [
        { Effect: 'Allow', Principal: principal, Action: 's3:GetObject', Resource: 'arn:aws:s3:::partner-exports/*' },
        { Effect: 'Allow', Principal: principal, Action: 's3:ListBucket', Resource: 'arn:aws:s3:::partner-exports' },
      ],
    };
    const keyPolicy = { Statement: [{ Effect: 'Allow', Principal: principal, Action: 'kms:Decrypt', Resource: '*' }] };
    const notes = Annotations.fromStack(stack).findInfo('*', Match.stringLikeRegexp('crossAccountSource'));
    expect(notes).toHaveLength(1); // the archive bucket has no owner, this account's would need none
    const text = String(notes[0].entry.data);
    expect(text).toContain(JSON.stringify(bucketPolicy));
    expect(text).toContain(JSON.stringify(keyPolicy));
  });

  it('outputs the source buckets for the CLI with addOutputs', () => {
    const withOutputs = pipelineStack(partnerSources, ENV, (p) => p.addOutputs()).template;
    const outputs = withOutputs.findOutputs('SourceBuckets');
    expect(outputs.SourceBuckets.Value).toBe(JSON.stringify(['partner-exports', 'archive-bucket']));
  });

  it('fails when an owner is not an account id', () => {
    expect(() =>
      pipelineStack((s) => ({
        sources: [{ bucket: s3.Bucket.fromBucketName(s, 'B', 'bucket-b'), expectedOwner: 'acme' }],
      })),
    ).toThrow("sources[0].expectedOwner must be a 12-digit account id, got 'acme'");
  });
});

describe('a bucket or key in another Region (issue 38, risk 7)', () => {
  const inRegion = (s: Stack, region: string) =>
    s3.Bucket.fromBucketAttributes(s, 'Far', { bucketName: 'far-bucket', region });

  it('fails at synth when a source bucket is in another Region than the stack', () => {
    expect(() => pipelineStack((s) => ({ sources: [{ bucket: inRegion(s, 'us-east-1') }] }))).toThrow(
      /sources\[0\]\.bucket is in us-east-1, the stack in eu-west-1: .*301 PermanentRedirect/,
    );
  });

  it("fails at synth when the stack's bucket or its key is in another Region", () => {
    expect(() => pipelineStack((s) => ({ bucket: inRegion(s, 'us-east-1') }))).toThrow(/^bucket is in us-east-1/);
    const key = (s: Stack) => kms.Key.fromKeyArn(s, 'K', PARTNER_KEY.replace('eu-west-1', 'us-west-2'));
    expect(() => pipelineStack((s) => ({ bucketKey: key(s) }))).toThrow(/^bucketKey is in us-west-2/);
  });

  it('checks nothing when a Region is unknown at synth (an environment-agnostic stack)', () => {
    expect(() => pipelineStack((s) => ({ sources: [{ bucket: inRegion(s, 'us-east-1') }] }), {})).not.toThrow();
  });
});
