import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { stackPropsFromContext } from '../../lib/app-context.js';

const read = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context }).node);

describe('stackPropsFromContext', () => {
  it('reads arrays and numbers as cdk.json holds them', () => {
    const watches = [{ prefix: 'in/', table: 'a' }];
    expect(read({ tableNames: ['a', 'b'], watches, maxConcurrency: 8 })).toEqual({
      bucketName: undefined,
      bucketKmsKeyArn: undefined,
      tableNames: ['a', 'b'],
      watches,
      maxConcurrency: 8,
    });
  });

  it('reads the strings that -c key=value gives', () => {
    const watches = '[{"prefix":"in/","table":"a"}]';
    const bucketKmsKeyArn = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const props = read({ bucketName: 'data', bucketKmsKeyArn, tableNames: 'a, b', watches, maxConcurrency: '8' });
    expect(props).toEqual({
      bucketName: 'data',
      bucketKmsKeyArn,
      tableNames: ['a', 'b'],
      watches: [{ prefix: 'in/', table: 'a' }],
      maxConcurrency: 8,
    });
  });

  it.each([
    ['a list', [{ bucketName: 'partner', expectedOwner: '222222222222' }]],
    ['JSON text', '[{"bucketName":"partner","expectedOwner":"222222222222"}]'],
  ])('reads sources from %s', (_, sources) => {
    expect(read({ tableNames: 'a', sources }).sources).toEqual([
      { bucketName: 'partner', expectedOwner: '222222222222' },
    ]);
  });

  it.each([
    [true, true],
    ['true', true],
    ['false', false],
  ])('reads failedExecutionAlarm %j as %j', (value, expected) => {
    expect(read({ tableNames: 'a', failedExecutionAlarm: value }).failedExecutionAlarm).toBe(expected);
  });

  it.each([
    [true, true],
    ['true', true],
    ['false', false],
  ])('reads allowWarmThroughput %j as %j', (value, expected) => {
    expect(read({ tableNames: 'a', allowWarmThroughput: value }).allowWarmThroughput).toBe(expected);
  });

  it.each([
    [
      'failedExecutionAlarm is not a boolean',
      { tableNames: 'a', failedExecutionAlarm: 'yes' },
      'context failedExecutionAlarm must be true or false, got "yes"',
    ],
    ['tableNames is missing', {}, 'context tableNames must be a non-empty list'],
    ['tableNames is empty', { tableNames: '' }, 'context tableNames must be a non-empty list'],
    ['watches is not JSON', { tableNames: 'a', watches: '[{' }, 'context watches must be JSON'],
    ['a watch has no table', { tableNames: 'a', watches: [{ prefix: 'in/' }] }, 'context watches must be a list'],
    ['bucketName is empty', { tableNames: 'a', bucketName: '' }, 'context bucketName must be a bucket name, got ""'],
    ['bucketKmsKeyArn is empty', { tableNames: 'a', bucketKmsKeyArn: '' }, 'context bucketKmsKeyArn must be a KMS key'],
    ['bucketKmsKeyArn is no string', { tableNames: 'a', bucketKmsKeyArn: 7 }, 'must be a KMS key ARN, got 7'],
    ['maxConcurrency is no number', { tableNames: 'a', maxConcurrency: 'x' }, 'context maxConcurrency must be'],
    ['a source has no bucketName', { tableNames: 'a', sources: [{ expectedOwner: '1' }] }, 'context sources must be'],
    ['sources is not JSON', { tableNames: 'a', sources: '[{' }, 'context sources must be JSON'],
  ])('fails when %s', (_, context, message) => {
    expect(() => read(context)).toThrow(message);
  });
});
