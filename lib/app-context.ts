import type { Node } from 'constructs';
import type { WatchedPrefix } from './watched-prefix.js';
import type { S3DdbImportStackProps } from './s3-ddb-import-stack.js';
import type { StackSource } from './stack-source.js';

type ContextProps = Pick<
  S3DdbImportStackProps,
  | 'bucketName'
  | 'bucketKmsKeyArn'
  | 'tableNames'
  | 'watches'
  | 'maxConcurrency'
  | 'importReservedConcurrency'
  | 'failedExecutionAlarm'
  | 'allowWarmThroughput'
  | 'sources'
>;

/**
 * Reads the stack configuration from CDK context (cdk.json, or `-c key=value`, where every value is a
 * string): `bucketName`, `bucketKmsKeyArn`, `tableNames` (array or 'a,b'), `watches` (array or JSON text),
 * `maxConcurrency`, `importReservedConcurrency`, `failedExecutionAlarm` and `allowWarmThroughput` (true or 'true'),
 * `sources` (array or JSON text of `{ bucketName, expectedOwner?, kmsKeyArn? }`).
 * The construct checks the values themselves; this only checks their shape.
 */
export function stackPropsFromContext(node: Node): ContextProps {
  return {
    bucketName: readString('bucketName', 'a bucket name', node.tryGetContext('bucketName')),
    bucketKmsKeyArn: readString('bucketKmsKeyArn', 'a KMS key ARN', node.tryGetContext('bucketKmsKeyArn')),
    tableNames: readTableNames(node.tryGetContext('tableNames')),
    watches: readWatches(node.tryGetContext('watches')),
    maxConcurrency: readNumber('maxConcurrency', node.tryGetContext('maxConcurrency')),
    importReservedConcurrency: readNumber('importReservedConcurrency', node.tryGetContext('importReservedConcurrency')),
    failedExecutionAlarm: readBoolean('failedExecutionAlarm', node.tryGetContext('failedExecutionAlarm')),
    allowWarmThroughput: readBoolean('allowWarmThroughput', node.tryGetContext('allowWarmThroughput')),
    sources: readSources(node.tryGetContext('sources')),
  };
}

function readBoolean(name: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`context ${name} must be true or false, got ${JSON.stringify(value)}`);
}

function readString(name: string, what: string, value: unknown): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || value === '')) {
    throw new Error(`context ${name} must be ${what}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function readTableNames(value: unknown): string[] {
  const names =
    typeof value === 'string'
      ? value
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
      : value;
  if (!Array.isArray(names) || names.length === 0 || !names.every((name) => typeof name === 'string' && name)) {
    throw new Error(`context tableNames must be a non-empty list of table names, got ${JSON.stringify(value)}`);
  }
  return names;
}

/** The `watches` context (a list, or its JSON text); `local watch` reads cdk.json's with it too. */
export function readWatches(value: unknown): WatchedPrefix[] | undefined {
  if (value === undefined) return undefined;
  const watches = typeof value === 'string' ? parseJson('watches', value) : value;
  const valid = (w: unknown) =>
    typeof w === 'object' &&
    w !== null &&
    typeof (w as WatchedPrefix).prefix === 'string' &&
    typeof (w as WatchedPrefix).table === 'string';
  if (!Array.isArray(watches) || !watches.every(valid)) {
    throw new Error(`context watches must be a list of { prefix, table, ... }, got ${JSON.stringify(value)}`);
  }
  return watches as WatchedPrefix[];
}

function readSources(value: unknown): StackSource[] | undefined {
  if (value === undefined) return undefined;
  const sources = typeof value === 'string' ? parseJson('sources', value) : value;
  const optional = (v: unknown) => v === undefined || typeof v === 'string';
  const valid = (s: Partial<Record<keyof StackSource, unknown>> | null) =>
    typeof s === 'object' &&
    s !== null &&
    typeof s.bucketName === 'string' &&
    s.bucketName !== '' &&
    optional(s.expectedOwner) &&
    optional(s.kmsKeyArn);
  if (!Array.isArray(sources) || !sources.every(valid)) {
    throw new Error(
      `context sources must be a list of { bucketName, expectedOwner?, kmsKeyArn? }, got ${JSON.stringify(value)}`,
    );
  }
  return sources as StackSource[];
}

function readNumber(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || Number.isNaN(n)) {
    throw new Error(`context ${name} must be a number, got ${JSON.stringify(value)}`);
  }
  return n;
}

function parseJson(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`context ${name} must be JSON, got ${text}`);
  }
}
