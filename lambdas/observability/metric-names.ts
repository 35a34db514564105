/**
 * The import's CloudWatch metrics, published as embedded metric format (EMF) log lines: CloudWatch Logs
 * extracts them from the function's log group, so publishing costs no API call and no IAM grant.
 * Specification: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 * ("_aws" with "Timestamp" and "CloudWatchMetrics": [{ Namespace, Dimensions, Metrics }], each named
 * dimension and metric a member of the root object). In Lambda, a line on stdout is enough:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Lambda.html
 */

/** The custom namespace every import metric goes to; lib/pipeline-dashboard.ts graphs the same names. */
export const METRICS_NAMESPACE = 'S3DdbImport';

/** The one dimension: the state machine's name, so two pipelines in one account graph apart. */
export const STATE_MACHINE_DIMENSION = 'StateMachine';

/** Each metric and its EMF unit. */
export const IMPORT_METRIC_UNITS = {
  /** Items DynamoDB acknowledged. */
  ItemsWritten: 'Count',
  /** Rows written to the rejects file. */
  ItemsRejected: 'Count',
  /** BatchWriteItem requests sent again after a throttle or another retryable error (5xx, timeout). */
  ThrottledRetries: 'Count',
  /** BatchWriteItem requests sent again because the reply left items unprocessed. */
  UnprocessedRetries: 'Count',
  /** Requests the adaptive limit allowed in flight when the invocation ended (at most 16). */
  InFlightLimit: 'None',
} as const;

export type ImportMetricName = keyof typeof IMPORT_METRIC_UNITS;
export const IMPORT_METRIC_NAMES = Object.keys(IMPORT_METRIC_UNITS) as ImportMetricName[];

/** One invocation's figures and what identifies the work (kept as plain log fields, not dimensions). */
export interface ImportMetrics {
  readonly stateMachine: string;
  readonly values: Readonly<Record<ImportMetricName, number>>;
  /** Epoch milliseconds the metrics are stamped with. */
  readonly timestamp: number;
  /** Searchable in Logs Insights; CloudWatch ignores members no directive names. */
  readonly fields?: Readonly<Record<string, string | number | null>>;
}

/** `arn:aws:states:<region>:<account>:stateMachine:<name>` gives `<name>`; a bare name stays as it is. */
export function stateMachineName(idOrName: string): string {
  const match = /^arn:[^:]+:states:[^:]*:[^:]*:stateMachine:([^:]+)/.exec(idOrName);
  return match ? match[1] : idOrName;
}

/** The EMF document for one invocation, as one line of JSON (no newline). */
export function importMetricsLine({ stateMachine, values, timestamp, fields = {} }: ImportMetrics): string {
  const document = {
    ...fields,
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [[STATE_MACHINE_DIMENSION]],
          Metrics: IMPORT_METRIC_NAMES.map((name) => ({ Name: name, Unit: IMPORT_METRIC_UNITS[name] })),
        },
      ],
    },
    [STATE_MACHINE_DIMENSION]: stateMachineName(stateMachine),
    ...values,
  };
  return JSON.stringify(document);
}
