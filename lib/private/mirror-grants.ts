import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { grantObjectPut } from '../bucket-grants.js';
import type { ImportPipelineProps } from '../import-pipeline-props.js';
import { acknowledge, wildcardResourceFinding } from '../nag-acknowledgments.js';
import type { PipelineFunctions } from './pipeline-functions.js';
import type { PipelineSettings } from './pipeline-settings.js';

/**
 * What a mirror's functions may do (lambdas/mirror-scan, lambdas/mirror-parts): MirrorScan scans each table (the keys
 * only, by ProjectionExpression; IAM cannot hold a Scan to the key attributes without naming them, which an imported
 * ITable does not tell) and puts the table's key parts under the rejects prefix; MirrorParts lists and reads the key
 * parts there, streams the delete lists there (multipart past one part), deletes the key parts once compared, and
 * deletes items with BatchWriteItem. Nothing else:
 * neither may read a source object, and only MirrorParts may delete an item.
 */
export function grantMirrorAccess(
  props: ImportPipelineProps,
  settings: PipelineSettings,
  { mirrorScan, mirrorParts }: PipelineFunctions,
): void {
  const { bucketKey, rejectsPrefix } = settings;
  const pattern = `${rejectsPrefix}/*`;
  const what = 'a mirror keeps its key parts and delete lists under <rejectsPrefix>/<execution>/...';
  grantObjectPut(props.bucket, bucketKey, mirrorScan, pattern, { what, multipart: false });
  grantObjectPut(props.bucket, bucketKey, mirrorParts, pattern, { what, multipart: true });
  s3.BucketGrants.fromBucket(props.bucket).actionsOnObjectKeys(mirrorParts, pattern, 's3:GetObject');
  iam.Grant.addToPrincipalOrResource({
    grantee: mirrorParts,
    actions: ['s3:ListBucket'],
    resourceArns: [props.bucket.bucketArn],
    resource: props.bucket,
  });
  bucketKey?.grant(mirrorParts, 'kms:Decrypt');
  acknowledge(
    mirrorParts.role!,
    wildcardResourceFinding(mirrorParts, `${props.bucket.bucketArn}/${pattern}`),
    `${what}, keys known only at run time; nothing outside the rejects prefix (s3:GetObject, s3:PutObject only)`,
  );
  // MirrorDropKeyParts' DeleteObjects: the key parts only (<execution>/mirror/), never a delete list or a reject.
  const keyParts = `${rejectsPrefix}/*/mirror/*`;
  s3.BucketGrants.fromBucket(props.bucket).actionsOnObjectKeys(mirrorParts, keyParts, 's3:DeleteObject');
  acknowledge(
    mirrorParts.role!,
    wildcardResourceFinding(mirrorParts, `${props.bucket.bucketArn}/${keyParts}`),
    'a mirror deletes its key parts under <rejectsPrefix>/<execution>/mirror/ once compared; keys known only at run ' +
      'time; nothing outside them (s3:DeleteObject only)',
  );
  for (const table of props.tables) {
    // MirrorPlan sizes the parts and segments from DescribeTable's ItemCount and TableSizeBytes.
    table.grant(mirrorScan, 'dynamodb:Scan', 'dynamodb:DescribeTable');
    table.grant(mirrorParts, 'dynamodb:BatchWriteItem');
  }
}

/**
 * A mirror's Scan segments and part deletes renew the import's lease and read its live settings (rate, pause) as a
 * chunk does (lambdas/mirror/mirror-pace.ts): the ledger's name, and UpdateItem (lambdas/admission/ledger.ts renew).
 */
export function grantMirrorLedger(ledger: dynamodb.ITable, { mirrorScan, mirrorParts }: PipelineFunctions): void {
  for (const fn of [mirrorScan, mirrorParts]) {
    fn.addEnvironment('LEDGER_TABLE', ledger.tableName);
    ledger.grant(fn, 'dynamodb:UpdateItem');
  }
}
