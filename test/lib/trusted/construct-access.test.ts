import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { ImportPipeline, UNRESERVED_IMPORTS_WARNING, type ImportPipelineProps } from '../../../lib/import-pipeline.js';
import { grantsOf, logicalId } from '../role-grants.js';

/** One pipeline over an imported bucket and two tables; bundling skipped (cdk-synth.test.ts covers it). */
function build(props: (stack: Stack, tables: dynamodb.ITable[]) => Partial<ImportPipelineProps> = () => ({})) {
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Access');
  const bucket = s3.Bucket.fromBucketName(stack, 'Bucket', 'data-bucket');
  const tables = ['orders', 'words'].map((name) => dynamodb.Table.fromTableName(stack, name, name));
  const pipeline = new ImportPipeline(stack, 'Pipeline', { bucket, tables, dashboard: false, ...props(stack, tables) });
  return { stack, pipeline, tables };
}

describe('the construct, as an app uses it (issue 35)', () => {
  it('offers the outputs the CLI reads, under their contract names', () => {
    const { stack, pipeline } = build();
    pipeline.addOutputs();
    const outputs = Template.fromStack(stack).toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual([
      'BucketName',
      'LedgerTableName',
      'StateMachineArn',
      'WatchedPrefixes',
    ]);
    expect(outputs.StateMachineArn.Value).toEqual({ Ref: logicalId(pipeline.stateMachine) });
    expect(outputs.LedgerTableName.Value).toEqual({ Ref: logicalId(pipeline.ledgerTable) });
  });

  it('grants who may start imports exactly what `start` calls, on this pipeline only', () => {
    const { stack, pipeline } = build();
    const operator = new iam.Role(stack, 'Operator', { assumedBy: new iam.AccountRootPrincipal() });
    pipeline.grantStartImports(operator);
    const grants = grantsOf(Template.fromStack(stack), operator);
    expect(Object.keys(grants).sort()).toEqual([
      'cloudformation:DescribeStacks',
      's3:AbortMultipartUpload',
      's3:GetObject',
      's3:ListBucket',
      's3:PutObject',
      'states:DescribeExecution',
      'states:DescribeMapRun',
      'states:ListMapRuns',
      'states:StartExecution',
    ]);
    expect(grants['states:StartExecution']).toEqual([{ Ref: logicalId(pipeline.stateMachine) }]);
    expect(JSON.stringify(grants['s3:PutObject'])).toContain(':s3:::data-bucket/s3-ddb-import/uploads/*');
    expect(JSON.stringify(grants['s3:GetObject'])).toContain(':s3:::data-bucket/s3-ddb-import/rejects/*');
    expect(grants['cloudformation:DescribeStacks']).toEqual([{ Ref: 'AWS::StackId' }]);
    expect(Object.values(grants).flat()).not.toContain('*');
  });

  it('grants who may change imports (rate, pause, resume) the ledger items and the outputs, nothing else', () => {
    const { stack, pipeline } = build();
    const onCall = new iam.Role(stack, 'OnCall', { assumedBy: new iam.AccountRootPrincipal() });
    pipeline.grantChangeImports(onCall);
    const grants = grantsOf(Template.fromStack(stack), onCall);
    const ledger = { 'Fn::GetAtt': [logicalId(pipeline.ledgerTable), 'Arn'] };
    expect(grants).toEqual({
      'cloudformation:DescribeStacks': [{ Ref: 'AWS::StackId' }],
      'dynamodb:GetItem': [ledger],
      'dynamodb:Scan': [ledger],
      'dynamodb:UpdateItem': [ledger],
    });
  });

  it('lets a watch name its table by the ITable, as `tables` does, or by name', () => {
    const { stack } = build((_, [orders]) => ({
      watches: [
        { prefix: 'in/orders/', tableRef: orders },
        { prefix: 'in/words/', table: 'words' },
      ],
    }));
    const rules = Template.fromStack(stack).findResources('AWS::Events::Rule');
    const descriptions = Object.values(rules).map((r) => r.Properties.Description as string);
    expect(descriptions.sort()).toEqual([
      'Imports objects created under s3://data-bucket/in/orders/ into orders',
      'Imports objects created under s3://data-bucket/in/words/ into words',
    ]);
  });

  it('fails when a watch names no table, both forms, or a table not among tables', () => {
    const other = (stack: Stack) => dynamodb.Table.fromTableName(stack, 'Other', 'other');
    expect(() => build(() => ({ watches: [{ prefix: 'a/' }] }))).toThrow(/exactly one of table .* or tableRef/);
    expect(() => build((_, [orders]) => ({ watches: [{ prefix: 'a/', table: 'orders', tableRef: orders }] }))).toThrow(
      /exactly one/,
    );
    expect(() => build((stack) => ({ watches: [{ prefix: 'a/', tableRef: other(stack) }] }))).toThrow(
      "watch for prefix 'a/': tableRef Access/Other is not among tables",
    );
  });
});

describe('concurrency at synth (issue 38, risks 4 and 5)', () => {
  it('warns when importReservedConcurrency is unset, and not when it is set', () => {
    const unset = Annotations.fromStack(build().stack);
    unset.hasWarning('/Access/Pipeline', Match.stringLikeRegexp('importReservedConcurrency is unset'));
    expect(JSON.stringify(unset.findWarning('*', Match.anyValue()))).toContain(UNRESERVED_IMPORTS_WARNING);
    const set = Annotations.fromStack(build(() => ({ importReservedConcurrency: 50 })).stack);
    set.hasNoWarning('*', Match.stringLikeRegexp('importReservedConcurrency'));
  });

  it('bounds the imports that scan at once with a reservation on the preflight function', () => {
    const { stack, pipeline } = build(() => ({ preflightReservedConcurrency: 3 }));
    const template = Template.fromStack(stack);
    const preflight = template.toJSON().Resources[logicalId(pipeline.preflightFunction)];
    expect(preflight.Properties.ReservedConcurrentExecutions).toBe(3);
    expect(() => build(() => ({ preflightReservedConcurrency: 0 }))).toThrow(
      'preflightReservedConcurrency must be a positive integer, got 0',
    );
  });
});
