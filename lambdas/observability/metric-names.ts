/**
 * The names of the import's CloudWatch metrics: what the handler publishes (observability/metrics.ts) and
 * what the dashboard and alarm graph (lib/pipeline-dashboard.ts). No runtime dependency, so the CDK app
 * imports it without loading Powertools.
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

/** `arn:aws:states:<region>:<account>:stateMachine:<name>` gives `<name>`; a bare name stays as it is. */
export function stateMachineName(idOrName: string): string {
  const match = /^arn:[^:]+:states:[^:]*:[^:]*:stateMachine:([^:]+)/.exec(idOrName);
  return match ? match[1] : idOrName;
}
