import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { S3DdbImportStack, type S3DdbImportStackProps } from '../../../lib/s3-ddb-import-stack.js';
import { grantsOf } from '../role-grants.js';

const PARTNER_KEY = 'arn:aws:kms:eu-west-1:222222222222:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const noBundling = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stackWith = (props: Partial<S3DdbImportStackProps>) =>
  new S3DdbImportStack(noBundling(), 'Sources', { tableNames: ['ngrams'], ...props });

const objectsOf = (bucket: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::${bucket}/*`]] });

/** The deployable app's `sources` (cdk.json context): the construct's sources, by bucket name and key ARN. */
describe('the stack with sources (issue 38, the deployed tier reads a partner bucket with it)', () => {
  it('grants read on each named bucket and decrypt on its key, and outputs them for the CLI', () => {
    const stack = stackWith({
      sources: [
        { bucketName: 'partner-exports', expectedOwner: '222222222222', kmsKeyArn: PARTNER_KEY },
        { bucketName: 'archive' },
      ],
    });
    const template = Template.fromStack(stack);

    const grants = grantsOf(template, stack.pipeline.importFunction.role);
    expect(grants['s3:GetObject']).toEqual(
      expect.arrayContaining([objectsOf('partner-exports'), objectsOf('archive')]),
    );
    expect(grants['kms:Decrypt']).toEqual([PARTNER_KEY]);
    expect(template.findOutputs('SourceBuckets').SourceBuckets.Value).toBe('["partner-exports","archive"]');
    const env = Object.values(template.findResources('AWS::Lambda::Function')).map((f) =>
      JSON.stringify(f.Properties.Environment?.Variables ?? {}),
    );
    expect(env.some((vars) => vars.includes('\\"expectedOwner\\":\\"222222222222\\"'))).toBe(true);
  });

  it('fails when a source key is not a key ARN, naming the source', () => {
    expect(() => stackWith({ sources: [{ bucketName: 'p', kmsKeyArn: 'alias/partner' }] })).toThrow(
      "sources[0].kmsKeyArn must be a KMS key ARN like arn:aws:kms:us-east-1:111122223333:key/1234abcd-..., got 'alias/partner'",
    );
  });
});
