import { paginateGetMetricData, type CloudWatchClient, type MetricDataQuery } from '@aws-sdk/client-cloudwatch';
import {
  METRICS_NAMESPACE,
  STATE_MACHINE_DIMENSION,
  stateMachineName,
  type ImportMetricName,
} from '../../../lambdas/observability/metric-names.js';

/** One-minute datapoints: EMF metrics are stored at that resolution unless declared high-resolution. */
const PERIOD_SECONDS = 60;

/**
 * Items written and rejected by the state machine's imports from `since` to `until` (the import Lambda's metrics,
 * named in lambdas/observability/metric-names.ts): GetMetricData with one Sum query per metric (MetricDataQueries[].MetricStat; the answer's MetricDataResults[].Values, one per
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
  const query = (id: string, metricName: ImportMetricName): MetricDataQuery => ({
    Id: id,
    MetricStat: {
      Metric: {
        Namespace: METRICS_NAMESPACE,
        MetricName: metricName,
        Dimensions: [{ Name: STATE_MACHINE_DIMENSION, Value: stateMachineName(stateMachineArn) }],
      },
      Period: PERIOD_SECONDS,
      Stat: 'Sum',
    },
  });
  const sums = { written: 0, rejected: 0 };
  let datapoints = 0;
  const input = {
    MetricDataQueries: [query('written', 'ItemsWritten'), query('rejected', 'ItemsRejected')],
    StartTime: since,
    EndTime: until,
  };
  for await (const answer of paginateGetMetricData({ client: cloudwatch }, input)) {
    for (const result of answer.MetricDataResults ?? []) {
      const values = result.Values ?? [];
      datapoints += values.length;
      if (result.Id === 'written' || result.Id === 'rejected') sums[result.Id] += values.reduce((a, b) => a + b, 0);
    }
  }
  return datapoints > 0 ? sums : null;
}
