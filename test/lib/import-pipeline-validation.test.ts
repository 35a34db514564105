import { App, Duration, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { ImportPipeline, type ImportPipelineProps } from '../../lib/import-pipeline.js';
import { S3DdbImportStack } from '../../lib/s3-ddb-import-stack.js';

/** Builds a pipeline in a fresh stack; every case here throws before any function is bundled. */
function build(props: Partial<ImportPipelineProps>): void {
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test');
  new ImportPipeline(stack, 'Pipeline', {
    bucket: s3.Bucket.fromBucketName(stack, 'Bucket', 'data-bucket'),
    tables: [dynamodb.Table.fromTableName(stack, 'Table', 'ngrams')],
    ...props,
  });
}

describe('ImportPipeline validation', () => {
  it.each([
    // 7 days was the old default: inside the 14 days a failed import can be redriven.
    [Duration.days(7), '7 days'],
    [Duration.days(13), '13 days'],
    // S3 lifecycle rules count whole days.
    [Duration.hours(400), '16 days 16 hours'],
  ])('fails when stagingExpiration is %s', (stagingExpiration, shown) => {
    expect(() => build({ stagingExpiration })).toThrow(
      'stagingExpiration must be a whole number of days, at least 14 (a failed import can be redriven for 14 days, ' +
        `and its redriven chunks read their staged pieces again), got ${shown}`,
    );
  });

  it('accepts a stagingExpiration of exactly the redrive window, and keeps it in the rule', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test');
    new ImportPipeline(stack, 'Pipeline', {
      bucket: new s3.Bucket(stack, 'Bucket'),
      tables: [dynamodb.Table.fromTableName(stack, 'Table', 'ngrams')],
      stagingExpiration: Duration.days(14),
    });
    Template.fromStack(stack).hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({ Id: 'ExpireStagedPieces', ExpirationInDays: 14 })]),
      },
    });
  });

  it.each([0, 1001, 2.5])('fails when maxConcurrency is %s', (maxConcurrency) => {
    const message = `maxConcurrency must be an integer from 1 to 1000, got ${maxConcurrency}`;
    expect(() => build({ maxConcurrency })).toThrow(message);
  });

  it('accepts maxConcurrency above the inline Map cap of 40 (the chunks Map is distributed)', () => {
    expect(() => build({ maxConcurrency: 200 })).not.toThrow();
  });

  it.each([0, -1, 2.5])('fails when importReservedConcurrency is %s', (importReservedConcurrency) => {
    const message = `importReservedConcurrency must be a positive integer, got ${importReservedConcurrency}`;
    expect(() => build({ importReservedConcurrency })).toThrow(message);
  });

  it('fails when a watch names a table not in tables', () => {
    expect(() => build({ watches: [{ prefix: 'in/', table: 'other' }] })).toThrow(
      "watch for prefix 'in/': table 'other' is not among tables (ngrams)",
    );
  });

  it.each([
    ['an empty prefix', ''],
    ['a prefix above the rejects', 's3-ddb-import/'],
    ['a prefix inside the rejects', 's3-ddb-import/rejects/x/'],
  ])('fails when a watch has %s (its reports would trigger imports)', (_, prefix) => {
    expect(() => build({ watches: [{ prefix, table: 'ngrams' }] })).toThrow('overlaps the rejects prefix');
  });

  it('fails when a watch has a format the request validator rejects', () => {
    const watches = [{ prefix: 'in/', table: 'ngrams', format: { delimiter: '||' } }];
    expect(() => build({ watches })).toThrow("watch for prefix 'in/': format.delimiter: must be one character");
  });

  it('fails when tables is empty', () => {
    expect(() => build({ tables: [] })).toThrow('tables must hold at least one table');
  });

  it('fails when timeout is over 15 minutes', () => {
    expect(() => build({ timeout: Duration.minutes(16) })).toThrow('timeout must be from 1 to 900 seconds, got 960');
  });

  it.each([
    ['the staging prefix itself', 's3-ddb-import/staging/'],
    ['a folder inside it', 's3-ddb-import/staging/run/'],
  ])('fails when a watch has %s (staged pieces would trigger imports)', (_, prefix) => {
    expect(() => build({ watches: [{ prefix, table: 'ngrams' }] })).toThrow(
      "overlaps the staging prefix 's3-ddb-import/staging/'",
    );
  });

  it.each([
    ['the same as rejectsPrefix', 's3-ddb-import/rejects'],
    ['inside rejectsPrefix', 's3-ddb-import/rejects/staged'],
  ])('fails when stagingPrefix is %s', (_, stagingPrefix) => {
    expect(() => build({ stagingPrefix })).toThrow('stagingPrefix and rejectsPrefix must not contain each other');
  });

  it('fails when rejectsPrefix is not a key prefix', () => {
    const message = "rejectsPrefix must be a key prefix like 'imports/rejects', got '/'";
    expect(() => build({ rejectsPrefix: '/' })).toThrow(message);
  });

  it('fails when the stack gets no table names', () => {
    expect(() => new S3DdbImportStack(new App(), 'Empty', { tableNames: [] })).toThrow('tableNames must name at least');
  });
});

describe('CsvImportPipeline (the deprecated name)', () => {
  it('builds the same template as ImportPipeline: users’ stacks that import the old name deploy unchanged', async () => {
    const { CsvImportPipeline } = await import('../../lib/csv-import-pipeline.js');
    const synth = (construct: typeof ImportPipeline) => {
      const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test');
      new construct(stack, 'Pipeline', {
        bucket: s3.Bucket.fromBucketName(stack, 'Bucket', 'data-bucket'),
        tables: [dynamodb.Table.fromTableName(stack, 'Table', 'ngrams')],
        watches: [{ prefix: 'in/', table: 'ngrams' }],
      });
      return Template.fromStack(stack).toJSON();
    };
    const current = synth(ImportPipeline);
    expect(Object.keys(current.Resources).length).toBeGreaterThan(10);
    expect(synth(CsvImportPipeline)).toEqual(current);
  });
});

describe("ImportPipeline and the bucket's EventBridge delivery", () => {
  it('turns EventBridge delivery on for a bucket of this app that has it off, so the watch rules can fire', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test');
    new ImportPipeline(stack, 'Pipeline', {
      bucket: new s3.Bucket(stack, 'Bucket'), // eventBridgeEnabled not set
      tables: [dynamodb.Table.fromTableName(stack, 'Table', 'ngrams')],
      watches: [{ prefix: 'in/', table: 'ngrams' }],
    });
    Template.fromStack(stack).hasResourceProperties('Custom::S3BucketNotifications', {
      NotificationConfiguration: { EventBridgeConfiguration: {} },
    });
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('EventBridge'));
  });

  it('leaves a bucket alone when nothing is watched', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test');
    new ImportPipeline(stack, 'Pipeline', {
      bucket: new s3.Bucket(stack, 'Bucket'),
      tables: [dynamodb.Table.fromTableName(stack, 'Table', 'ngrams')],
    });
    Template.fromStack(stack).resourceCountIs('Custom::S3BucketNotifications', 0);
  });
});
