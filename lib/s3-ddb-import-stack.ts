import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cxapi from 'aws-cdk-lib/cx-api';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ImportPipeline, type WatchedPrefix } from './import-pipeline.js';
import { acknowledge, LAMBDA_BASIC_EXECUTION_POLICY } from './nag-acknowledgments.js';
import { checkKeyArn, importSources, type StackSource } from './stack-source.js';

/** How long S3 server access logs of a new bucket are kept: a year covers an annual audit. */
const ACCESS_LOG_RETENTION = Duration.days(365);

export interface S3DdbImportStackProps extends StackProps {
  /**
   * An existing bucket to import from. With `watches`, its EventBridge notifications must be on. Its
   * access logging, if any, stays as it is.
   * @default - a new private, encrypted bucket that sends events to EventBridge and server access logs to
   * a second bucket (`AccessLogsBucket`, logs kept 365 days)
   */
  readonly bucketName?: string;
  /**
   * ARN of the customer managed KMS key that encrypts the existing bucket's objects (SSE-KMS); needs
   * `bucketName`. The functions get `kms:Decrypt` (readers) and `kms:GenerateDataKey` (writers of rejects and
   * reports) on exactly this key, and every PUT they make asks for SSE-KMS with it; the stack outputs it as
   * `BucketKmsKeyArn` for the CLI's uploads. The key's policy must let this account's IAM policies grant its use (the
   * default key policy does).
   * @default - no KMS grants (the bucket uses SSE-S3)
   */
  readonly bucketKmsKeyArn?: string;
  /** Existing tables imports may write; at least one. */
  readonly tableNames: string[];
  /** Prefixes whose new objects start an import. @default - none */
  readonly watches?: WatchedPrefix[];
  /** Chunks imported at once, 1 to 1,000; preflight lowers it to the free Lambda concurrency. @default 40 */
  readonly maxConcurrency?: number;
  /** Reserved concurrency for the import function. @default - none */
  readonly importReservedConcurrency?: number;
  /** An alarm on failed executions, shown on the dashboard (`<stack name>-imports`). @default false */
  readonly failedExecutionAlarm?: boolean;
  /**
   * Let a request's `warmThroughput` pre-warm the tables: preflight gets `dynamodb:UpdateTable` on them.
   * @default false - a request whose warmThroughput needs a raise fails before any write
   */
  readonly allowWarmThroughput?: boolean;
  /**
   * Other buckets imports may read (the construct's `sources`), read only; the watched prefixes stay on the bucket.
   * @default - none: a request naming another bucket is refused
   */
  readonly sources?: StackSource[];
}

/** The deployable app: a bucket (new or existing), existing tables, and the import pipeline. */
export class S3DdbImportStack extends Stack {
  public readonly pipeline: ImportPipeline;

  constructor(scope: Construct, id: string, props: S3DdbImportStackProps) {
    super(scope, id, props);
    if (props.tableNames.length === 0) throw new Error('tableNames must name at least one existing table, got []');

    if (!props.bucketName && props.bucketKmsKeyArn !== undefined) {
      throw new Error(`bucketKmsKeyArn needs bucketName (a new bucket uses SSE-S3), got ${props.bucketKmsKeyArn}`);
    }
    const bucket = props.bucketName ? this.existingBucket(props.bucketName, props.bucketKmsKeyArn) : this.newBucket();
    const tables = props.tableNames.map((name, index) => dynamodb.Table.fromTableName(this, `Table${index}`, name));

    this.pipeline = new ImportPipeline(this, 'Pipeline', {
      bucket,
      tables,
      watches: props.watches,
      maxConcurrency: props.maxConcurrency,
      importReservedConcurrency: props.importReservedConcurrency,
      dashboardName: `${this.stackName}-imports`,
      failedExecutionAlarm: props.failedExecutionAlarm,
      allowWarmThroughput: props.allowWarmThroughput,
      sources: importSources(this, props.sources),
    });

    // Output names are public contract: `s3-ddb-import start/status/rate/...` find the stack's parts by them.
    this.pipeline.addOutputs();
  }

  /** The named bucket; with a key ARN, the bucket carries it so the pipeline grants its use. */
  private existingBucket(bucketName: string, keyArn: string | undefined): s3.IBucket {
    if (keyArn === undefined) return s3.Bucket.fromBucketName(this, 'Bucket', bucketName);
    checkKeyArn('bucketKmsKeyArn', keyArn);
    const encryptionKey = kms.Key.fromKeyArn(this, 'BucketKey', keyArn);
    return s3.Bucket.fromBucketAttributes(this, 'Bucket', { bucketName, encryptionKey });
  }

  /** A private, encrypted, TLS-only bucket whose server access logs go to a second bucket like it. */
  private newBucket(): s3.Bucket {
    // Grant log delivery with a bucket policy (AWS's advice) rather than the LogDeliveryWrite ACL, which
    // needs ACLs on; set here so the stack does not depend on the app's feature flags.
    this.node.setContext(cxapi.S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);
    const privateBucket: s3.BucketProps = {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      removalPolicy: RemovalPolicy.RETAIN,
    };
    const accessLogs = new s3.Bucket(this, 'AccessLogsBucket', {
      ...privateBucket,
      lifecycleRules: [{ expiration: ACCESS_LOG_RETENTION }],
    });
    acknowledge(
      accessLogs,
      'AwsSolutions-S1',
      'this bucket holds the server access logs of the import bucket; logging it too would need a third bucket',
    );
    const bucket = new s3.Bucket(this, 'Bucket', {
      ...privateBucket,
      eventBridgeEnabled: true,
      serverAccessLogsBucket: accessLogs,
    });
    // eventBridgeEnabled adds CDK's own BucketNotificationsHandler, whose role it builds itself.
    const notificationsHandler = this.node.children.find((c) => c.node.id.startsWith('BucketNotificationsHandler'));
    if (notificationsHandler) {
      acknowledge(
        notificationsHandler,
        `AwsSolutions-IAM4[Policy::${LAMBDA_BASIC_EXECUTION_POLICY}]`,
        "CDK's BucketNotificationsHandler (sets the bucket's EventBridge notification at deploy time) builds its " +
          'own role with AWSLambdaBasicExecutionRole and offers no way to replace it',
      );
    }
    return bucket;
  }
}
