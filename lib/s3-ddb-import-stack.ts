import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { CsvImportPipeline, type WatchedPrefix } from './csv-import-pipeline.js';

export interface S3DdbImportStackProps extends StackProps {
  /**
   * An existing bucket to import from. With `watches`, its EventBridge notifications must be on.
   * @default - a new private, encrypted bucket that sends events to EventBridge
   */
  readonly bucketName?: string;
  /** Existing tables imports may write; at least one. */
  readonly tableNames: string[];
  /** Prefixes whose new objects start an import. @default - none */
  readonly watches?: WatchedPrefix[];
  /** Chunks imported at once, 1 to 40. @default 40 */
  readonly maxConcurrency?: number;
}

/** The deployable app: a bucket (new or existing), existing tables, and the import pipeline. */
export class S3DdbImportStack extends Stack {
  public readonly pipeline: CsvImportPipeline;

  constructor(scope: Construct, id: string, props: S3DdbImportStackProps) {
    super(scope, id, props);
    if (props.tableNames.length === 0) throw new Error('tableNames must name at least one existing table, got []');

    const bucket = props.bucketName
      ? s3.Bucket.fromBucketName(this, 'Bucket', props.bucketName)
      : new s3.Bucket(this, 'Bucket', {
          blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
          enforceSSL: true,
          encryption: s3.BucketEncryption.S3_MANAGED,
          eventBridgeEnabled: true,
          versioned: false,
          removalPolicy: RemovalPolicy.RETAIN,
        });
    const tables = props.tableNames.map((name, index) =>
      dynamodb.Table.fromTableName(this, `Table${index}`, name),
    );

    this.pipeline = new CsvImportPipeline(this, 'Pipeline', {
      bucket,
      tables,
      watches: props.watches,
      maxConcurrency: props.maxConcurrency,
    });

    new CfnOutput(this, 'StateMachineArn', { value: this.pipeline.stateMachine.stateMachineArn });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
  }
}
