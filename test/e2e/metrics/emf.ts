/**
 * A checker for CloudWatch embedded metric format documents, after the specification
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html):
 * the log event is one JSON object; `_aws` holds `Timestamp` (epoch milliseconds) and `CloudWatchMetrics`, an
 * array of MetricDirectives `{ Namespace, Dimensions: DimensionSet[], Metrics: MetricDefinition[] }`; a
 * DimensionSet is an array of at most 30 member names whose values are strings; a MetricDefinition is
 * `{ Name, Unit? }`, its value a number (or an array of numbers) under the root member `Name`.
 */

/** Units the specification allows. */
const UNITS = new Set([
  'Seconds',
  'Microseconds',
  'Milliseconds',
  'Bytes',
  'Kilobytes',
  'Megabytes',
  'Gigabytes',
  'Terabytes',
  'Bits',
  'Kilobits',
  'Megabits',
  'Gigabits',
  'Terabits',
  'Percent',
  'Count',
  'Bytes/Second',
  'Kilobytes/Second',
  'Megabytes/Second',
  'Gigabytes/Second',
  'Terabytes/Second',
  'Bits/Second',
  'Kilobits/Second',
  'Megabits/Second',
  'Gigabits/Second',
  'Terabits/Second',
  'Count/Second',
  'None',
]);
const MAX_DIMENSIONS = 30;
const MAX_METRICS = 100;

/** One extracted metric: what CloudWatch would record from the document. */
export interface EmfMetric {
  readonly namespace: string;
  readonly dimensions: Record<string, string>;
  readonly name: string;
  readonly unit: string | undefined;
  readonly value: number;
  readonly timestamp: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(line: string, problem: string): never {
  throw new Error(`not valid EMF (${problem}): ${line}`);
}

/** Parses one log line as an EMF document and returns its metrics; throws naming the first broken rule. */
export function parseEmf(line: string): EmfMetric[] {
  let root: unknown;
  try {
    root = JSON.parse(line);
  } catch {
    fail(line, 'not JSON');
  }
  if (!isObject(root) || !isObject(root._aws)) fail(line, 'no _aws object at the root');
  const { Timestamp, CloudWatchMetrics } = root._aws as Record<string, unknown>;
  if (typeof Timestamp !== 'number' || !Number.isInteger(Timestamp))
    fail(line, '_aws.Timestamp is not epoch milliseconds');
  if (!Array.isArray(CloudWatchMetrics)) fail(line, '_aws.CloudWatchMetrics is not an array');
  return CloudWatchMetrics.flatMap((directive: unknown) => {
    if (!isObject(directive) || typeof directive.Namespace !== 'string' || directive.Namespace === '')
      fail(line, 'a directive has no Namespace');
    const sets = directive.Dimensions;
    const metrics = directive.Metrics;
    if (!Array.isArray(sets) || !Array.isArray(metrics)) fail(line, 'Dimensions and Metrics must be arrays');
    if (metrics.length > MAX_METRICS) fail(line, `more than ${MAX_METRICS} metrics`);
    return sets.flatMap((set: unknown) => {
      if (!Array.isArray(set) || set.length > MAX_DIMENSIONS)
        fail(line, 'a dimension set is not an array of up to 30 names');
      const dimensions = Object.fromEntries(
        set.map((name: unknown) => {
          const value = typeof name === 'string' ? root[name] : undefined;
          if (typeof value !== 'string') fail(line, `dimension ${String(name)} is not a string member of the root`);
          return [name as string, value];
        }),
      );
      return metrics.map((definition: unknown) => {
        if (!isObject(definition) || typeof definition.Name !== 'string') fail(line, 'a metric has no Name');
        const unit = definition.Unit;
        if (unit !== undefined && (typeof unit !== 'string' || !UNITS.has(unit)))
          fail(line, `unit ${String(unit)} is not allowed`);
        const value = root[definition.Name];
        if (typeof value !== 'number') fail(line, `metric ${definition.Name} is not a number member of the root`);
        return {
          namespace: directive.Namespace as string,
          dimensions,
          name: definition.Name,
          unit: unit as string | undefined,
          value,
          timestamp: Timestamp,
        };
      });
    });
  });
}
