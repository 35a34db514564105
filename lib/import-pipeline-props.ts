import type { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { ImportSource } from './import-source.js';
import type { PipelineWatch } from './watched-prefix.js';

/** What `ImportPipeline` takes: the bucket and tables it serves, and how it runs. */
export interface ImportPipelineProps {
  /**
   * Bucket holding the files; rejects and reports are written under `rejectsPrefix` in it.
   * For `watches`, the bucket must send events to EventBridge: `eventBridgeEnabled: true` on a bucket
   * you create, or EventBridge notifications turned on for an imported one (not done here).
   */
  readonly bucket: s3.IBucket;
  /**
   * The KMS key the bucket's objects are encrypted with (SSE-KMS): readers get `kms:Decrypt` and writers of
   * rejects and reports `kms:GenerateDataKey` on exactly this key, and every PUT of the functions (staged pieces,
   * rejects, reports) asks for SSE-KMS with it (BUCKET_KMS_KEY_ARN), as a bucket policy that denies PutObject without
   * `x-amz-server-side-encryption: aws:kms` requires. Give the key's ARN (`kms.Key.fromKeyArn`),
   * not an alias: an alias in a policy's Resource does not grant use of the key.
   * @default - the bucket's own `encryptionKey`, if any (SSE-S3 otherwise: no KMS grants)
   */
  readonly bucketKey?: kms.IKey;
  /** Tables imports may write; each gets its own grants, and requests for any other table fail. */
  readonly tables: dynamodb.ITable[];
  /**
   * Buckets imports may also read (a request's `bucket` may name one), in this account or another, in the stack's
   * Region: read grants on exactly these, `ExpectedBucketOwner` on every S3 call when an owner is given, and a synth
   * note with the bucket-policy statement another account's owner must add. Watches stay on `bucket`.
   * @default - none: requests may name `bucket` only
   */
  readonly sources?: ImportSource[];
  /**
   * Prefixes whose new objects start an import; each names its table by `table` (a name) or `tableRef` (one of
   * `tables`). @default - none; imports start with StartExecution
   */
  readonly watches?: PipelineWatch[];
  /**
   * Let a request's `warmThroughput` raise a table's (and its global secondary indexes') warm throughput: preflight
   * gets `dynamodb:UpdateTable` on the tables, an action that can also change their indexes, billing mode and
   * deletion protection. Without it, a request whose `warmThroughput` needs a raise fails before any write, naming the
   * ways on (raise it yourself with `aws dynamodb update-table --warm-throughput`, or deploy with this on).
   * @default false
   */
  readonly allowWarmThroughput?: boolean;
  /**
   * Chunks imported at once (the Distributed Map's MaxConcurrency), 1 to 1,000. Preflight lowers it to what the
   * import function's Lambda concurrency leaves free (its reservation, else half the account's unreserved pool).
   * @default 40
   */
  readonly maxConcurrency?: number;
  /**
   * Reserved concurrency for the import function: its lanes are then its own (no other function can starve
   * them) and bounded (imports cannot starve other functions). Preflight fits the lanes to it. Without it, synth
   * warns (`s3-ddb-import:importConcurrencyUnreserved`): each stack's imports take up to half the unreserved pool, so
   * two such stacks in one account and Region can take all of it.
   * @default - no reservation: the import shares the account's unreserved concurrency
   */
  readonly importReservedConcurrency?: number;
  /**
   * Reserved concurrency for the preflight function: at most this many imports scan at once, however many uploads
   * arrive together (each preflight takes `preflightMemorySize`); the others wait in Preflight's Retry on
   * `Lambda.TooManyRequestsException` (up to 924 s, then the import fails). Reserving takes it from the account's
   * unreserved pool, which must keep 100 (https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html).
   * @default - no reservation: a burst of N uploads runs N preflights at once in the shared pool
   */
  readonly preflightReservedConcurrency?: number;
  /** Memory of the import function in MB; 1769 MB buys one full vCPU. @default 1769 */
  readonly importMemorySize?: number;
  /** Memory of the preflight (scan) function in MB. @default 1024 */
  readonly preflightMemorySize?: number;
  /** Timeout of the preflight and import functions; both checkpoint before it. @default Duration.minutes(15) */
  readonly timeout?: Duration;
  /** Key prefix for rejects and reports: `<rejectsPrefix>/<execution>/...`. @default 's3-ddb-import/rejects' */
  readonly rejectsPrefix?: string;
  /**
   * A CloudWatch dashboard of the import's metrics (namespace `S3DdbImport`) beside the tables' write capacity and
   * throttles, the import function's concurrency and errors, and the executions started and failed.
   * @default true
   */
  readonly dashboard?: boolean;
  /** @default - CloudFormation generates one */
  readonly dashboardName?: string;
  /** An alarm on failed executions (ExecutionsFailed >= 1 in 5 minutes). @default false */
  readonly failedExecutionAlarm?: boolean;
  /** Where the failed-execution alarm notifies. @default - no action: the alarm shows in the console and dashboard */
  readonly alarmTopic?: sns.ITopic;
  /**
   * Key prefix for the staged pieces of big compressed objects: `<stagingPrefix>/<execution>/...`. Preflight
   * writes them and each chunk's import deletes its piece once imported.
   * @default 's3-ddb-import/staging'
   */
  readonly stagingPrefix?: string;
  /**
   * How long staged pieces a failed import left behind are kept: a lifecycle rule on the staging prefix, added
   * when `bucket` is an `s3.Bucket` of this app (an imported bucket cannot be changed here: add such a rule to it
   * yourself, as the README's Troubleshooting shows). Whole days, at least 14: a failed import can be redriven for
   * 14 days after it ends, and a redriven chunk reads its piece again. Whether a redrive re-runs the chunks of a Map
   * whose failure the workflow caught is not documented by AWS (docs/guides/aws.md, "Redrive"); if it does, each
   * re-run chunk asks the ledger for its import's lanes again before it writes. The default adds the longest import
   * (lib/private/pipeline-settings.ts shows the sum). The rule also removes a noncurrent piece (a versioned bucket
   * keeps one for every piece deleted) a day after it stops being current.
   * @default Duration.days(21)
   */
  readonly stagingExpiration?: Duration;
}
