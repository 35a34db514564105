import type { StackEvent } from '@aws-sdk/client-cloudformation';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  applyEngineEdits,
  deployJson,
  deployLines,
  ENGINE_EDITS,
  firstRefusal,
  type Template,
} from '../../cli/local-deploy/index.js';

/** A template with what each edit looks for: a metric-math alarm and a statement allowing an action the engine renames. */
function template(): Template {
  return {
    Resources: {
      Alarm: {
        Type: 'AWS::CloudWatch::Alarm',
        Properties: {
          Threshold: 1,
          Metrics: [
            { Id: 'sum', Expression: 'a + b' },
            { Id: 'a', MetricStat: { Metric: { Namespace: 'N', MetricName: 'A' }, Period: 300, Stat: 'Sum' } },
            { Id: 'b', MetricStat: { Metric: { Namespace: 'N', MetricName: 'B' }, Period: 300, Stat: 'Sum' } },
          ],
        },
      },
      Policy: {
        Type: 'AWS::IAM::Policy',
        Properties: {
          PolicyDocument: {
            Statement: [{ Effect: 'Allow', Action: 'lambda:GetFunctionConcurrency', Resource: 'arn:fn' }],
          },
        },
      },
    },
  };
}

describe('the engine edits', () => {
  it('make a metric-math alarm watch its first metric, and name the engine action beside the AWS one', () => {
    const edited = template();
    expect(applyEngineEdits(edited)).toEqual([
      { name: 'metric-math-alarms', changed: ['Alarm'] },
      { name: 'engine-action-names', changed: ['lambda:GetFunctionConcurrency'] },
    ]);
    expect(edited.Resources.Alarm.Properties).toEqual({
      Threshold: 1,
      Namespace: 'N',
      MetricName: 'A',
      Period: 300,
      Statistic: 'Sum',
    });
    const [statement] = edited.Resources.Policy.Properties.PolicyDocument!.Statement;
    expect(statement.Action).toEqual(['lambda:GetFunctionConcurrency', 'lambda:PutFunctionConcurrency']);
  });

  it('change nothing in a stack without what they look for, and nothing more the second time', () => {
    const none: Template = { Resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: {} } } };
    expect(applyEngineEdits(none).flatMap((edit) => edit.changed)).toEqual([]);
    const twice = template();
    applyEngineEdits(twice);
    const once = JSON.stringify(twice);
    expect(applyEngineEdits(twice)[0].changed).toEqual([]);
    expect(JSON.stringify(twice)).toBe(once);
  });

  it('are each named, with the reason, in docs/guides/rehearse-locally.md', () => {
    const guide = readFileSync(new URL('../../docs/guides/rehearse-locally.md', import.meta.url), 'utf8');
    for (const edit of ENGINE_EDITS) expect(guide).toContain(`**\`${edit.name}\`**`);
  });
});

describe('a refusal', () => {
  const at = new Date('2026-11-28T18:00:00Z');
  const event = (id: string, status: string, reason: string, seconds = 5): StackEvent =>
    ({
      StackId: 'arn:stack/S',
      EventId: `${id}-${seconds}`,
      StackName: 'S',
      LogicalResourceId: id,
      ResourceType: id === 'S' ? 'AWS::CloudFormation::Stack' : 'AWS::SQS::Queue',
      ResourceStatus: status,
      ResourceStatusReason: reason,
      Timestamp: new Date(at.getTime() + seconds * 1000),
    }) as StackEvent;

  it("is the first resource that failed since the deploy began, not the stack's own line nor an older failure", () => {
    // Newest first, as DescribeStackEvents returns them.
    const events = [
      event('S', 'ROLLBACK_COMPLETE', 'Rollback complete', 9),
      event('Second', 'CREATE_FAILED', 'Resource creation cancelled', 8),
      event('Queue', 'CREATE_FAILED', 'bad name', 7),
      event('Queue', 'CREATE_IN_PROGRESS', '', 6),
      event('Old', 'CREATE_FAILED', 'from a deploy before', -60),
    ];
    expect(firstRefusal(events, 'S', at)?.LogicalResourceId).toBe('Queue');
  });
});

describe('the lines local deploy prints', () => {
  const engine = {
    pid: 1,
    endpoint: 'http://127.0.0.1:40123',
    region: 'us-east-1',
    credentials: { accessKeyId: 'a', secretAccessKey: 'b=c' },
    startedAt: '',
  };
  it('export the engine for every service, then show the outputs and the commands as comments', () => {
    const outputs = { BucketName: 'bkt', WatchedPrefixes: '["in/"]' };
    const lines = deployLines(engine, { stack: 'Other', outputs, edits: [], assemblyDir: '' });
    expect(lines.filter((line) => !line.startsWith('#'))).toEqual([
      'export AWS_ENDPOINT_URL=http://127.0.0.1:40123',
      'export AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:40123',
      'export AWS_ENDPOINT_URL_S3=http://127.0.0.1:40123',
      'export AWS_REGION=us-east-1',
      'export AWS_DEFAULT_REGION=us-east-1',
      'export AWS_ACCESS_KEY_ID=a',
      'export AWS_SECRET_ACCESS_KEY=b=c',
    ]);
    expect(lines).toContain("#   aws s3 cp <file> 's3://bkt/in/'");
    expect(lines).toContain('#   s3-ddb-import start <file> --table <table> --stack Other --follow');
  });

  it('--json: the stack, its outputs, the edits and the same variables, as one object', () => {
    const edits = [{ name: 'metric-math-alarms', changed: ['Alarm'] }];
    const json = deployJson(engine, { stack: 'S3DdbImport', outputs: { BucketName: 'bkt' }, edits, assemblyDir: '' });
    expect(json).toEqual({
      status: 'DEPLOYED',
      stack: 'S3DdbImport',
      endpoint: 'http://127.0.0.1:40123',
      outputs: { BucketName: 'bkt' },
      edits,
      env: {
        AWS_ENDPOINT_URL: 'http://127.0.0.1:40123',
        AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:40123',
        AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:40123',
        AWS_REGION: 'us-east-1',
        AWS_DEFAULT_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'a',
        AWS_SECRET_ACCESS_KEY: 'b=c',
      },
    });
  });
});
