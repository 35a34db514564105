import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { grantObjectDelete, grantObjectPut, grantRejectsRewrite, grantSourceRead } from '../bucket-grants.js';
import type { ImportPipelineProps } from '../import-pipeline-props.js';
import { writeModeActions } from '../../lambdas/contract/write-mode-traits.js';
import type { PipelineFunctions } from './pipeline-functions.js';
import type { PipelineSettings } from './pipeline-settings.js';
import { addSettings } from './pipeline-environment.js';

/**
 * A staged piece that is no longer current (its chunk's import deleted it, or the rule expired it) is never read again:
 * on a versioned bucket it is removed a day later rather than kept forever as a noncurrent version. One day is the
 * least NoncurrentDays takes.
 */
const NONCURRENT_PIECE_EXPIRATION = Duration.days(1);

/**
 * A rejects upload lives within one ImportChunk invocation (at most 15 minutes); one left unfinished (an invocation
 * that timed out or crashed between its parts and CompleteMultipartUpload, so never sent AbortMultipartUpload) is
 * useless a day later. One day is the least DaysAfterInitiation takes.
 */
const UNFINISHED_REJECTS_UPLOAD_AGE = Duration.days(1);

/**
 * What the functions may do with the bucket: preflight and import read sources; import and summarize write
 * rejects and reports; preflight stages big compressed objects as plain pieces (the S3 trampoline), and each
 * chunk's import deletes its own. With SSE-KMS, exactly the bucket's key is granted.
 */
export function grantBucketAccess(
  props: ImportPipelineProps,
  settings: PipelineSettings,
  { preflight, importer, summarize }: PipelineFunctions,
): void {
  const { bucketKey } = settings;
  for (const reader of [preflight, importer]) {
    grantSourceRead(props.bucket, bucketKey, reader);
    // The other sources are read only: nothing is ever written to them (rejects and pieces go to `bucket`).
    for (const source of settings.sources) grantSourceRead(source.bucket, source.key, reader);
  }
  for (const writer of [importer, summarize]) {
    // A rejects file past one part is a multipart upload (lambdas/wiring/s3-stream-upload.ts).
    const what = 'rejects and reports go to <rejectsPrefix>/<execution>/...';
    grantObjectPut(props.bucket, bucketKey, writer, `${settings.rejectsPrefix}/*`, { what, multipart: true });
  }
  grantObjectPut(props.bucket, bucketKey, preflight, `${settings.stagingPrefix}/*`, {
    what: 'big compressed objects are staged as plain pieces under <stagingPrefix>/<execution>/...',
    multipart: false,
  });
  grantObjectDelete(props.bucket, importer, `${settings.stagingPrefix}/*`);
  // Summarize rewrites the rejects of lanes that numbered lines from their own first record (summarize/relative-rejects-io.ts).
  grantRejectsRewrite(props.bucket, bucketKey, summarize, `${settings.rejectsPrefix}/*`);
}

/**
 * The backstop for staged pieces: a lifecycle rule, on a bucket of this app only (an imported one cannot change).
 * On a versioned bucket, the Expiration only puts a delete marker over a piece (and the import's own DeleteObject
 * does the same): the piece stays, noncurrent, until NoncurrentVersionExpiration removes it; S3 then removes the
 * delete marker left alone, as the rule expires current versions
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/lifecycle-expire-general-considerations.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/ManagingDelMarkers.html). No AbortIncompleteMultipartUpload:
 * preflight writes each piece (at most 128 MiB) with one PutObject, never a multipart upload.
 */
export function expireStagedPieces(props: ImportPipelineProps, settings: PipelineSettings): void {
  if (!(props.bucket instanceof s3.Bucket)) return;
  props.bucket.addLifecycleRule({
    id: 'ExpireStagedPieces',
    prefix: `${settings.stagingPrefix}/`,
    expiration: settings.stagingExpiration,
    noncurrentVersionExpiration: NONCURRENT_PIECE_EXPIRATION,
  });
}

/**
 * Per table: preflight reads its key schema (DescribeTable) and, only when the stack allows pre-warming
 * (`allowWarmThroughput`), raises its and its indexes' warm throughput for a request's `warmThroughput` (UpdateTable:
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html; UpdateTable also
 * changes indexes, billing and deletion protection, so it is not held without need); before an import that can
 * destroy data it reads its point-in-time recovery (DescribeContinuousBackups) and whether it holds items: one Scan
 * with `Select: COUNT` and Limit 1 (lambdas/table-checks/table-safety-check.ts), the only Scan it is allowed: the grant carries
 * the condition `dynamodb:Select = COUNT`, so it can count items but never read one
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html). The
 * import writes with BatchWriteItem (put, delete); with BatchExecuteStatement of PartiQL INSERT and UPDATE
 * statements (insert, update), which IAM authorizes per statement as dynamodb:PartiQLInsert and
 * dynamodb:PartiQLUpdate on the table (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-iam.html);
 * and with PutItem and UpdateItem for the items whose names make a statement too long (write/statement-writer.ts).
 * Nothing else (not grantWriteData, which adds DeleteItem, ConditionCheckItem and DescribeTable).
 */
export function grantTableAccess(props: ImportPipelineProps, { preflight, importer }: PipelineFunctions): void {
  for (const table of props.tables) {
    table.grant(preflight, 'dynamodb:DescribeTable', 'dynamodb:DescribeContinuousBackups');
    iam.Grant.addToPrincipal({
      grantee: preflight,
      actions: ['dynamodb:Scan'],
      resourceArns: [table.tableArn],
      conditions: { StringEquals: { 'dynamodb:Select': 'COUNT' } },
    });
    if (props.allowWarmThroughput) table.grant(preflight, 'dynamodb:UpdateTable');
    // What the writers of every mode call (each mode's traits name its own): a request picks its mode at run time.
    table.grant(importer, ...writeModeActions());
  }
  // Preflight refuses a request whose warmThroughput needs a raise it may not make (lambdas/environment/config.ts).
  if (props.allowWarmThroughput) addSettings([preflight], { warmThroughputAllowed: true });
}

/**
 * The backstop for rejects uploads, on a bucket of this app only (an imported one cannot change): S3 keeps and bills
 * the parts of a multipart upload that is neither completed nor aborted until a lifecycle rule aborts it
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/mpu-abort-incomplete-mpu-lifecycle-config.html). An
 * invocation that timed out mid-upload is retried from the same checkpoint and writes the same rejects key again, so
 * the abandoned upload holds nothing that is not written anew.
 */
export function abortUnfinishedRejectsUploads(props: ImportPipelineProps, settings: PipelineSettings): void {
  if (!(props.bucket instanceof s3.Bucket)) return;
  props.bucket.addLifecycleRule({
    id: 'AbortUnfinishedRejectsUploads',
    prefix: `${settings.rejectsPrefix}/`,
    abortIncompleteMultipartUploadAfter: UNFINISHED_REJECTS_UPLOAD_AGE,
  });
}
