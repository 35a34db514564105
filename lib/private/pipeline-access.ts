import { Arn, ArnFormat, CfnOutput, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { ResolvedSource } from '../import-source.js';

/** The parts of a pipeline that its outputs and its callers' grants name. */
export interface PipelineParts {
  readonly stateMachine: sfn.StateMachine;
  readonly ledgerTable: dynamodb.ITable;
  readonly bucket: s3.IBucket;
  readonly bucketKey?: kms.IKey;
  readonly sources: readonly ResolvedSource[];
  readonly watchedPrefixes: readonly string[];
  readonly rejectsPrefix: string;
}

/**
 * The stack outputs the CLI finds a deployment by (cli/cloud/aws/stack-outputs.ts STACK_OUTPUTS): their ids are
 * public contract. Made in the stack itself, so each output's name is its id whatever the construct's path.
 */
export function addCliOutputs(stack: Stack, parts: PipelineParts): void {
  new CfnOutput(stack, 'StateMachineArn', { value: parts.stateMachine.stateMachineArn });
  new CfnOutput(stack, 'BucketName', { value: parts.bucket.bucketName });
  // `s3-ddb-import rate | pause | resume` change a running import's live settings in it.
  new CfnOutput(stack, 'LedgerTableName', { value: parts.ledgerTable.tableName });
  // `start` refuses to upload under a watched prefix (the rule would start a second import of the upload).
  new CfnOutput(stack, 'WatchedPrefixes', { value: stack.toJsonString(parts.watchedPrefixes) });
  // Only with an SSE-KMS bucket: `start` then uploads with SSE-KMS headers naming this key, as the functions put.
  if (parts.bucketKey) new CfnOutput(stack, 'BucketKmsKeyArn', { value: parts.bucketKey.keyArn });
  // Only with `sources`: `start s3://<bucket>/<key>` and `estimate` accept these buckets too.
  if (parts.sources.length > 0) {
    const names = parts.sources.map((source) => source.bucket.bucketName);
    new CfnOutput(stack, 'SourceBuckets', { value: stack.toJsonString(names) });
  }
}

/** Where `s3-ddb-import start` uploads local files (its `--upload-prefix` default, cli/commands/start.ts). */
export const DEFAULT_UPLOAD_PREFIX = 's3-ddb-import/uploads/';

/**
 * What `s3-ddb-import start` (and `status`, `--follow`) call: read the stack's outputs, upload under the upload
 * prefix (multipart, so abort too; SSE-KMS needs GenerateDataKey, and Decrypt for the parts), start an execution,
 * follow it and its Map Runs, and copy the rejects.
 */
export function grantStartImports(grantee: iam.IGrantable, parts: PipelineParts, uploadPrefix: string): void {
  grantDescribeStack(grantee, Stack.of(parts.stateMachine));
  const objects = s3.BucketGrants.fromBucket(parts.bucket);
  objects.actionsOnObjectKeys(
    grantee,
    `${uploadPrefix.replace(/\/+$/, '')}/*`,
    's3:PutObject',
    's3:AbortMultipartUpload',
  );
  objects.actionsOnObjectKeys(grantee, `${parts.rejectsPrefix}/*`, 's3:GetObject');
  iam.Grant.addToPrincipal({ grantee, actions: ['s3:ListBucket'], resourceArns: [parts.bucket.bucketArn] });
  parts.bucketKey?.grant(grantee, 'kms:GenerateDataKey', 'kms:Decrypt');
  parts.stateMachine.grantStartExecution(grantee);
  parts.stateMachine.grantExecution(grantee, 'states:DescribeExecution', 'states:ListMapRuns');
  iam.Grant.addToPrincipal({ grantee, actions: ['states:DescribeMapRun'], resourceArns: [mapRunsArn(parts)] });
}

/** What `s3-ddb-import rate | pause | resume` call: the stack's outputs, and the ledger's items (read, list, change). */
export function grantChangeImports(grantee: iam.IGrantable, parts: PipelineParts): void {
  grantDescribeStack(grantee, Stack.of(parts.stateMachine));
  parts.ledgerTable.grant(grantee, 'dynamodb:GetItem', 'dynamodb:Scan', 'dynamodb:UpdateItem');
}

function grantDescribeStack(grantee: iam.IGrantable, stack: Stack): void {
  iam.Grant.addToPrincipal({ grantee, actions: ['cloudformation:DescribeStacks'], resourceArns: [stack.stackId] });
}

/** `arn:…:mapRun:<machine name>/*`: the Map Runs of this state machine (their ids are made at run time). */
function mapRunsArn({ stateMachine }: PipelineParts): string {
  const name = Arn.split(stateMachine.stateMachineArn, ArnFormat.COLON_RESOURCE_NAME).resourceName;
  return Stack.of(stateMachine).formatArn({
    service: 'states',
    resource: 'mapRun',
    resourceName: `${name}/*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}
