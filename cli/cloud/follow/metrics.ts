import { GetMetricDataCommand, type CloudWatchClient, type MetricDataQuery } from '@aws-sdk/client-cloudwatch';

/**
 * The import Lambda's embedded-metric-format metrics (published by the stack's metrics; names are contract
 * between that code and this reader): items written and rejected, per state machine.
 */
export const METRICS_NAMESPACE = 'S3DdbImport';
export const METRIC_ITEMS_WRITTEN = 'ItemsWritten';
export const METRIC_ITEMS_REJECTED = 'ItemsRejected';
export const METRICS_DIMENSION = 'StateMachine';
/** One-minute datapoints: EMF metrics are stored at that resolution unless declared high-resolution. */
const PERIOD_SECONDS = 60;

/** The dimension value the import publishes under: the state machine's name (the last part of its ARN). */
export function stateMachineDimension(stateMachineArn: string): string {
  return stateMachineArn.split(':').pop() ?? stateMachineArn;
}

/**
 * Items written and rejected by the state machine's imports from `since` to `until`: GetMetricData with one
 * Sum query per metric (MetricDataQueries[].MetricStat; the answer's MetricDataResults[].Values, one per
 * period: https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_GetMetricData.html), added up.
 * CloudWatch rounds the start down to the minute, and the dimension is the state machine, not the execution:
 * with two imports running at once (into different tables) both are counted. Null when there are no
 * datapoints at all (metrics not published yet, or a stack without them).
 */
export async function readImportMetrics(
  cloudwatch: CloudWatchClient,
  stateMachineArn: string,
  since: Date,
  until: Date,
) {
  const query = (id: string, metricName: string): MetricDataQuery => ({
    Id: id,
    MetricStat: {
      Metric: {
        Namespace: METRICS_NAMESPACE,
        MetricName: metricName,
        Dimensions: [{ Name: METRICS_DIMENSION, Value: stateMachineDimension(stateMachineArn) }],
      },
      Period: PERIOD_SECONDS,
      Stat: 'Sum',
    },
  });
  const sums = { written: 0, rejected: 0 };
  let datapoints = 0;
  let nextToken: string | undefined;
  do {
    const answer = await cloudwatch.send(
      new GetMetricDataCommand({
        MetricDataQueries: [query('written', METRIC_ITEMS_WRITTEN), query('rejected', METRIC_ITEMS_REJECTED)],
        StartTime: since,
        EndTime: until,
        NextToken: nextToken,
      }),
    );
    for (const result of answer.MetricDataResults ?? []) {
      const values = result.Values ?? [];
      datapoints += values.length;
      if (result.Id === 'written' || result.Id === 'rejected') sums[result.Id] += values.reduce((a, b) => a + b, 0);
    }
    nextToken = answer.NextToken;
  } while (nextToken);
  return datapoints > 0 ? sums : null;
}
