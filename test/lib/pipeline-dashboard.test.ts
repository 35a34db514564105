import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { ImportPipeline, type ImportPipelineProps } from '../../lib/import-pipeline.js';
import { IMPORT_METRIC_NAMES } from '../../lambdas/observability/metric-names.js';
import { logicalId, parseJoinedJson } from './role-grants.js';

type Extra = Partial<Omit<ImportPipelineProps, 'bucket' | 'tables'>>;

/** A pipeline in a stack of its own, with two tables; bundling skipped (cdk-synth.test.ts covers it). */
function pipelineStack(extra: Extra = {}, withTopic = false) {
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test');
  const topic = withTopic ? new sns.Topic(stack, 'Alerts') : undefined;
  const pipeline = new ImportPipeline(stack, 'Pipeline', {
    bucket: new s3.Bucket(stack, 'Bucket'),
    tables: ['ngrams', 'words'].map((name) => dynamodb.Table.fromTableName(stack, name, name)),
    alarmTopic: topic,
    ...extra,
  });
  return { stack, pipeline, topic, template: Template.fromStack(stack) };
}

/**
 * The dashboard body as the console reads it: CloudFormation joins literal JSON with references, so each
 * `{ Ref: id }` / `{ Fn::GetAtt: [id, attr] }` part becomes the text `<id>` / `<id.attr>` and the whole parses.
 */
function dashboardBody(template: Template): { widgets: { properties: { title?: string; metrics?: unknown[][] } }[] } {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
  return parseJoinedJson(dashboard.Properties.DashboardBody);
}

/** Each metric line of each graph as [namespace, name, ...dimension pairs], rendering options dropped. */
function graphedMetrics(template: Template): Map<string, string[][]> {
  const graphs = new Map<string, string[][]>();
  for (const { properties } of dashboardBody(template).widgets) {
    if (!properties.metrics) continue;
    graphs.set(
      properties.title!,
      properties.metrics.map((line) => line.filter((p): p is string => typeof p === 'string')),
    );
  }
  return graphs;
}

/** Each search expression of each graph, by title. */
function graphedSearches(template: Template): Map<string, string[]> {
  const graphs = new Map<string, string[]>();
  for (const { properties } of dashboardBody(template).widgets) {
    const expressions = (properties.metrics ?? [])
      .map((line) => (line[0] as { expression?: string }).expression)
      .filter((e): e is string => typeof e === 'string');
    if (expressions.length > 0) graphs.set(properties.title!, expressions);
  }
  return graphs;
}

describe('the pipeline dashboard', () => {
  const { pipeline, template } = pipelineStack({ dashboardName: 'imports' });
  const graphs = graphedMetrics(template);
  const stateMachineName = `<${logicalId(pipeline.stateMachine)}.Name>`;
  const importFunction = `<${logicalId(pipeline.importFunction)}>`;

  it('exists once, with the name given', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'imports' });
  });

  it("graphs every EMF metric of the import Lambda in namespace S3DdbImport, by the state machine's name", () => {
    const imported = [...graphs.values()].flat().filter((line) => line[0] === 'S3DdbImport');
    expect(new Set(imported.map((line) => line[1]))).toEqual(new Set(IMPORT_METRIC_NAMES));
    for (const line of imported) expect(line.slice(2)).toEqual(['StateMachine', stateMachineName]);
  });

  it("graphs each table's consumed write capacity and write throttle events", () => {
    expect(graphs.get('Tables: consumed write capacity')).toEqual([
      ['AWS/DynamoDB', 'ConsumedWriteCapacityUnits', 'TableName', 'ngrams'],
      ['AWS/DynamoDB', 'ConsumedWriteCapacityUnits', 'TableName', 'words'],
    ]);
    const throttles = graphs.get('Tables: write throttles')!;
    for (const table of ['ngrams', 'words']) {
      expect(throttles).toContainEqual(['AWS/DynamoDB', 'WriteThrottleEvents', 'TableName', table]);
    }
  });

  it("graphs the throttled requests of every write operation the modes use, and the indexes' throttle events", () => {
    // put and delete: BatchWriteItem; insert and update: BatchExecuteStatement, PutItem and UpdateItem. One search
    // per dimension set DynamoDB publishes ThrottledRequests with (Operation; Operation and OperationType, which
    // BatchExecuteStatement carries), and one for the write throttle events of every global secondary index.
    const searches = graphedSearches(template).get('Tables: write throttles')!;
    for (const table of ['ngrams', 'words']) {
      expect(searches).toContain(
        `SEARCH('{AWS/DynamoDB,Operation,TableName} MetricName="ThrottledRequests" TableName="${table}"', 'Sum', 60)`,
      );
      expect(searches).toContain(
        `SEARCH('{AWS/DynamoDB,Operation,OperationType,TableName} MetricName="ThrottledRequests" ` +
          `TableName="${table}"', 'Sum', 60)`,
      );
      expect(searches).toContain(
        `SEARCH('{AWS/DynamoDB,GlobalSecondaryIndexName,TableName} MetricName="WriteThrottleEvents" ` +
          `TableName="${table}"', 'Sum', 60)`,
      );
    }
  });

  it("graphs the import function's concurrency and errors and the executions started, succeeded and failed", () => {
    expect(graphs.get('Import function: concurrent executions')).toEqual([
      ['AWS/Lambda', 'ConcurrentExecutions', 'FunctionName', importFunction],
    ]);
    expect(graphs.get('Import function: errors')).toEqual([['AWS/Lambda', 'Errors', 'FunctionName', importFunction]]);
    const arn = `<${logicalId(pipeline.stateMachine)}>`;
    expect(graphs.get('Executions: started, succeeded, failed')).toEqual(
      ['ExecutionsStarted', 'ExecutionsSucceeded', 'ExecutionsFailed'].map((name) => [
        'AWS/States',
        name,
        'StateMachineArn',
        arn,
      ]),
    );
  });

  it('has no alarm unless one is asked for', () => {
    template.resourceCountIs('AWS::CloudWatch::Alarm', 0);
    expect(pipeline.failedExecutionAlarm).toBeUndefined();
  });

  it('is left out with dashboard: false', () => {
    pipelineStack({ dashboard: false }).template.resourceCountIs('AWS::CloudWatch::Dashboard', 0);
  });
});

describe('the failed-execution alarm', () => {
  it('alarms on one failed execution in 5 minutes, notifies the topic given and shows on the dashboard', () => {
    const { pipeline, template, topic } = pipelineStack({ failedExecutionAlarm: true }, true);
    template.resourceCountIs('AWS::CloudWatch::Alarm', 1);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/States',
      MetricName: 'ExecutionsFailed',
      Dimensions: [{ Name: 'StateMachineArn', Value: { Ref: logicalId(pipeline.stateMachine) } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: logicalId(topic!) }],
    });
    const alarmArn = `<${logicalId(pipeline.failedExecutionAlarm!)}.Arn>`;
    expect(dashboardBody(template).widgets[0]).toMatchObject({ type: 'alarm', properties: { alarms: [alarmArn] } });
  });

  it('shows the watch delivery alarm beside it, and sends both to the topic', () => {
    const watches = [{ prefix: 'in/', table: 'ngrams' }];
    const { pipeline, template, topic } = pipelineStack({ failedExecutionAlarm: true, watches }, true);
    const arn = (alarm: { node: { defaultChild?: unknown } }) => `<${logicalId(alarm as never)}.Arn>`;
    expect(dashboardBody(template).widgets[0]).toMatchObject({
      type: 'alarm',
      properties: { alarms: [arn(pipeline.failedExecutionAlarm!), arn(pipeline.watchStarter!.alarm)] },
    });
    expect(template.toJSON().Resources[logicalId(pipeline.watchStarter!.alarm)].Properties.AlarmActions).toEqual([
      { Ref: logicalId(topic!) },
    ]);
  });

  it('has no action without a topic', () => {
    const { template } = pipelineStack({ failedExecutionAlarm: true });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ExecutionsFailed',
      AlarmActions: Match.absent(),
    });
  });

  it('fails when a topic is given without the alarm', () => {
    expect(() => pipelineStack({}, true)).toThrow('alarmTopic needs failedExecutionAlarm: true');
  });
});
