import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { alarmOnAny } from './private/any-alarm.js';
import {
  IMPORT_METRIC_UNITS,
  METRICS_NAMESPACE,
  STATE_MACHINE_DIMENSION,
  type ImportMetricName,
} from '../lambdas/observability/metric-names.js';

/** Every graph sums (or takes the extremes of) one-minute periods: an import's pace changes within minutes. */
const PERIOD = Duration.minutes(1);
/** Three graphs of 8 columns fill one row of the dashboard's 24. */
const THIRD = 8;
const HALF = 12;

export interface PipelineDashboardProps {
  readonly stateMachine: sfn.StateMachine;
  readonly importFunction: lambda.IFunction;
  /** The tables imports may write: each one's write capacity and throttles are graphed. */
  readonly tables: dynamodb.ITable[];
  /** @default - CloudFormation generates a name */
  readonly dashboardName?: string;
  /** Alarms whose state the dashboard shows in a first row. @default - none */
  readonly alarms?: cloudwatch.IAlarm[];
}

/**
 * A CloudWatch dashboard that shows an import beside what bounds it: the import Lambda's own EMF metrics
 * (lambdas/observability/metric-names.ts: items written and rejected, retries, in-flight limit), the tables' consumed
 * write capacity and throttles, the import function's concurrency and errors, and the executions.
 */
export class PipelineDashboard extends Construct {
  public readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: PipelineDashboardProps) {
    super(scope, id);
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(3),
    });
    if (props.alarms?.length) {
      this.dashboard.addWidgets(
        new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24 }),
      );
    }
    this.dashboard.addWidgets(...importRow(props.stateMachine));
    this.dashboard.addWidgets(...tablesRow(props.tables));
    this.dashboard.addWidgets(...functionAndExecutionsRow(props.importFunction, props.stateMachine));
  }
}

const graph = (title: string, left: cloudwatch.IMetric[], width: number) =>
  new cloudwatch.GraphWidget({ title, left, width, height: 6 });

/** The import Lambda's own EMF metrics, under the state machine's name. */
function importRow(stateMachine: sfn.StateMachine): cloudwatch.IWidget[] {
  const imported = (name: ImportMetricName, statistic = cloudwatch.Stats.SUM) =>
    new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName: name,
      dimensionsMap: { [STATE_MACHINE_DIMENSION]: stateMachine.stateMachineName },
      statistic,
      period: PERIOD,
      label: `${name} (${statistic}, ${IMPORT_METRIC_UNITS[name] === 'Count' ? 'per minute' : 'requests'})`,
    });
  return [
    graph('Import: items written and rejected', [imported('ItemsWritten'), imported('ItemsRejected')], THIRD),
    graph('Import: BatchWriteItem retries', [imported('ThrottledRetries'), imported('UnprocessedRetries')], THIRD),
    graph(
      'Import: requests in flight allowed',
      [imported('InFlightLimit', cloudwatch.Stats.MINIMUM), imported('InFlightLimit', cloudwatch.Stats.AVERAGE)],
      THIRD,
    ),
  ];
}

/**
 * Search expressions of one table's write throttles beyond its own WriteThrottleEvents (graphed as a metric):
 * - ThrottledRequests of every operation the write modes use, whatever it is: BatchWriteItem (put, delete),
 *   BatchExecuteStatement, PutItem and UpdateItem (insert, update). DynamoDB publishes it by TableName and Operation,
 *   and BatchExecuteStatement's also by OperationType (Read or Write), so one search per dimension set
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html).
 * - WriteThrottleEvents of each global secondary index: the TableName dimension alone counts the base table only, an
 *   index's come under TableName and GlobalSecondaryIndexName, and a throttled index write throttles the base table's
 *   write (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TroubleshootingThrottling-cloudwatch.html).
 *   A search finds every index without knowing their names at synth.
 * Search syntax: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/search-expression-syntax.html.
 */
function throttleSearches(table: dynamodb.ITable): cloudwatch.IMetric[] {
  const search = (schema: string, metricName: string, label: string) =>
    new cloudwatch.SearchExpression({
      expression:
        `SEARCH('{AWS/DynamoDB,${schema}} MetricName="${metricName}" TableName="${table.tableName}"', ` +
        `'Sum', ${PERIOD.toSeconds()})`,
      label,
    });
  return [
    search('Operation,TableName', 'ThrottledRequests', 'ThrottledRequests'),
    search('Operation,OperationType,TableName', 'ThrottledRequests', 'ThrottledRequests'),
    search('GlobalSecondaryIndexName,TableName', 'WriteThrottleEvents', 'index WriteThrottleEvents'),
  ];
}

/** What bounds an import: each table's consumed write capacity and its throttles. */
function tablesRow(tables: readonly dynamodb.ITable[]): cloudwatch.IWidget[] {
  const throttles = (t: dynamodb.ITable) => [
    t.metric('WriteThrottleEvents', { statistic: cloudwatch.Stats.SUM, period: PERIOD }),
    ...throttleSearches(t),
  ];
  return [
    graph(
      'Tables: consumed write capacity',
      tables.map((t) => t.metricConsumedWriteCapacityUnits({ period: PERIOD })),
      HALF,
    ),
    graph('Tables: write throttles', tables.flatMap(throttles), HALF),
  ];
}

/** The import function's concurrency and errors, and the executions started, succeeded and failed. */
function functionAndExecutionsRow(importFunction: lambda.IFunction, stateMachine: sfn.IStateMachine) {
  return [
    // ConcurrentExecutions is reported per function; AWS advises reading it as a maximum:
    // https://docs.aws.amazon.com/lambda/latest/dg/monitoring-concurrency.html
    graph(
      'Import function: concurrent executions',
      [importFunction.metric('ConcurrentExecutions', { statistic: cloudwatch.Stats.MAXIMUM, period: PERIOD })],
      THIRD,
    ),
    graph('Import function: errors', [importFunction.metricErrors({ period: PERIOD })], THIRD),
    graph(
      'Executions: started, succeeded, failed',
      [
        stateMachine.metricStarted({ period: PERIOD }),
        stateMachine.metricSucceeded({ period: PERIOD }),
        stateMachine.metricFailed({ period: PERIOD }),
      ],
      THIRD,
    ),
  ];
}

/**
 * An alarm that goes off when an import execution fails (ExecutionsFailed >= 1 in 5 minutes), and is OK
 * again once 5 minutes pass without one. Missing data (no executions at all) is not a failure.
 */
export function addFailedExecutionAlarm(
  scope: Construct,
  id: string,
  stateMachine: sfn.StateMachine,
  topic?: sns.ITopic,
): cloudwatch.Alarm {
  const description = 'An s3-ddb-import execution failed: open the Step Functions console for its error and cause';
  const metric = stateMachine.metricFailed({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM });
  return alarmOnAny(scope, id, description, metric, topic);
}
