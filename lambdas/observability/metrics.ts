import { Metrics } from '@aws-lambda-powertools/metrics';
import {
  IMPORT_METRIC_NAMES,
  IMPORT_METRIC_UNITS,
  METRICS_NAMESPACE,
  STATE_MACHINE_DIMENSION,
  stateMachineName,
  type ImportMetricName,
} from './metric-names.js';
import { SERVICE_NAME } from './logger.js';

/**
 * The import's metrics of one container, published by Powertools as embedded metric format (EMF) log lines:
 * CloudWatch Logs extracts them from the function's log group, so publishing costs no API call and no IAM grant
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Lambda.html).
 * Powertools adds a `service` dimension to every metric by default; it is cleared so the dimension set stays
 * `[StateMachine]`, the one the dashboard and the alarm graph (a metric is identified by its dimensions).
 */
export function createImportMetrics(): Metrics {
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
  metrics.clearDefaultDimensions();
  return metrics;
}

/** One invocation's figures and what identifies the work (kept as metadata: searchable, not dimensions). */
export interface ImportMetricValues {
  readonly stateMachine: string;
  readonly values: Readonly<Record<ImportMetricName, number>>;
  readonly metadata?: Readonly<Record<string, string | number>>;
}

/**
 * Writes one EMF line: the five metrics under the state machine's name. Adding and publishing happen in one
 * synchronous stretch, so imports that share a container's Metrics (the local runner's concurrent chunks)
 * never mix their figures.
 *
 * @example
 * publishImportMetrics(metrics, { stateMachine: 'imports', values, metadata: { chunk: 3 } });
 */
export function publishImportMetrics(metrics: Metrics, { stateMachine, values, metadata = {} }: ImportMetricValues) {
  metrics.addDimension(STATE_MACHINE_DIMENSION, stateMachineName(stateMachine));
  for (const name of IMPORT_METRIC_NAMES) {
    metrics.addMetric(name, IMPORT_METRIC_UNITS[name], values[name]);
  }
  for (const [key, value] of Object.entries(metadata)) metrics.addMetadata(key, String(value));
  metrics.publishStoredMetrics();
}
