/**
 * What each AWS call the handlers make needs in IAM: the SDK command (client name and command name, as the
 * middleware context names them) to the IAM actions on the resource ARNs its input names. Mapped from the
 * Service Authorization Reference's tables of API operations and actions
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3.html,
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html) and the
 * operations' own Permissions sections, never guessed.
 *
 * A handler that starts calling something new (a Lambda GetAccountSettings, a Step Functions call) adds its
 * command here with the reference's line; until then the recording test fails naming the unmapped command.
 */

/** The partition, region and account the recorded ARNs are written for; the template is resolved to the same. */
export interface ArnContext {
  readonly partition: string;
  readonly region: string;
  readonly account: string;
}

/** Stands for the bucket's KMS key: a call cannot see which key S3 uses, the stack under test knows. */
export const BUCKET_KEY = '<bucket KMS key>';

/** One IAM permission a call needs. */
export interface Permission {
  readonly action: string;
  /** The resource ARN, or BUCKET_KEY: needed only when the bucket uses SSE-KMS, on its key. */
  readonly resource: string;
  /** The condition keys the request carries, for a grant with a condition (a Scan's `dynamodb:Select`). */
  readonly context?: Readonly<Record<string, string>>;
}

/** What a call's reply was: its HTTP status, when one arrived. */
export interface Outcome {
  readonly status?: number;
}

type Input = Record<string, unknown>;
type PermissionsOf = (input: Input, outcome: Outcome, arn: ArnContext) => Permission[];

const objectArn = (input: Input, arn: ArnContext) => `arn:${arn.partition}:s3:::${input.Bucket}/${input.Key}`;
const bucketArn = (input: Input, arn: ArnContext) => `arn:${arn.partition}:s3:::${input.Bucket}`;
/** A table is named by name or by ARN (BatchWriteItem's RequestItems takes either). */
const tableArn = (table: string, arn: ArnContext) =>
  table.startsWith('arn:') ? table : `arn:${arn.partition}:dynamodb:${arn.region}:${arn.account}:table/${table}`;
/** A function is named by name or by ARN. */
const functionArn = (name: string, arn: ArnContext) =>
  name.startsWith('arn:') ? name : `arn:${arn.partition}:lambda:${arn.region}:${arn.account}:function:${name}`;
const succeeded = (outcome: Outcome) => outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;

/**
 * "If the object you request doesn't exist, the error that Amazon S3 returns depends on whether you also have
 * the s3:ListBucket permission": 404 with it, 403 without
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html, the same for GetObject). A 404 seen here
 * is one a deployed function sees only with s3:ListBucket on the bucket.
 */
const listIfMissing = (input: Input, outcome: Outcome, arn: ArnContext): Permission[] =>
  outcome.status === 404 ? [{ action: 's3:ListBucket', resource: bucketArn(input, arn) }] : [];

/**
 * SSE-KMS: S3 uses the bucket's key with the caller's permissions, kms:GenerateDataKey to store an object and
 * kms:Decrypt to return one (https://docs.aws.amazon.com/AmazonS3/latest/userguide/UsingKMSEncryption.html,
 * https://repost.aws/knowledge-center/s3-bucket-access-default-encryption). Uploads need kms:Decrypt too only for
 * multipart uploads, to add parts (https://repost.aws/knowledge-center/s3-large-file-encryption-kms-key): a rejects
 * file past one part (lambdas/wiring/s3-stream-upload.ts). A GET that returns no body (404, 412) decrypts nothing; HeadObject
 * returns metadata only.
 */
export const COMMAND_PERMISSIONS: Readonly<Record<string, PermissionsOf>> = {
  // HeadObject: "To use HEAD, you must have the s3:GetObject permission" (API_HeadObject.html).
  'S3Client.HeadObjectCommand': (input, outcome, arn) => [
    { action: 's3:GetObject', resource: objectArn(input, arn) },
    ...listIfMissing(input, outcome, arn),
  ],
  // Range and IfMatch change nothing; no VersionId is sent, so not s3:GetObjectVersion.
  'S3Client.GetObjectCommand': (input, outcome, arn) => [
    { action: 's3:GetObject', resource: objectArn(input, arn) },
    ...listIfMissing(input, outcome, arn),
    ...(succeeded(outcome) ? [{ action: 'kms:Decrypt', resource: BUCKET_KEY }] : []),
  ],
  // Only s3:PutObject: the ACL, tagging and object-lock actions the reference lists with PutObject apply when
  // the request carries those headers, and putObject() (lambdas/wiring/aws-io.ts) sends Body and ContentType (and, with
  // a bucket key, the SSE-KMS headers, which need no action beyond the key's kms:GenerateDataKey).
  'S3Client.PutObjectCommand': (input, _outcome, arn) => [
    { action: 's3:PutObject', resource: objectArn(input, arn) },
    { action: 'kms:GenerateDataKey', resource: BUCKET_KEY },
  ],
  // A multipart upload: s3:PutObject to start, add parts to and complete it; s3:AbortMultipartUpload to abort it
  // (https://docs.aws.amazon.com/AmazonS3/latest/userguide/mpuoverview.html#mpuAndPermissions); with SSE-KMS,
  // kms:GenerateDataKey to start it and kms:Decrypt for its parts (s3-large-file-encryption-kms-key above).
  'S3Client.CreateMultipartUploadCommand': (input, _outcome, arn) => [
    { action: 's3:PutObject', resource: objectArn(input, arn) },
    { action: 'kms:GenerateDataKey', resource: BUCKET_KEY },
  ],
  'S3Client.UploadPartCommand': (input, _outcome, arn) => [
    { action: 's3:PutObject', resource: objectArn(input, arn) },
    { action: 'kms:Decrypt', resource: BUCKET_KEY },
  ],
  'S3Client.CompleteMultipartUploadCommand': (input, _outcome, arn) => [
    { action: 's3:PutObject', resource: objectArn(input, arn) },
    { action: 'kms:Decrypt', resource: BUCKET_KEY },
  ],
  'S3Client.AbortMultipartUploadCommand': (input, _outcome, arn) => [
    { action: 's3:AbortMultipartUpload', resource: objectArn(input, arn) },
  ],
  // ListObjectsV2: "You must have READ access to the bucket", the s3:ListBucket action on the bucket
  // (API_ListObjectsV2.html, and the reference's ListBucket row); its Prefix narrows nothing in IAM here.
  'S3Client.ListObjectsV2Command': (input, _outcome, arn) => [
    { action: 's3:ListBucket', resource: bucketArn(input, arn) },
  ],
  // DeleteObject without a VersionId: s3:DeleteObject on the object (s3:DeleteObjectVersion only with one).
  'S3Client.DeleteObjectCommand': (input, _outcome, arn) => [
    { action: 's3:DeleteObject', resource: objectArn(input, arn) },
  ],
  // DeleteObjects: "you must have s3:DeleteObject permission" on each object it names (API_DeleteObjects.html), no
  // action of its own; MirrorDropKeyParts sends one per listing page of key parts.
  'S3Client.DeleteObjectsCommand': (input, _outcome, arn) =>
    ((input.Delete as { Objects?: { Key?: string }[] } | undefined)?.Objects ?? []).map(({ Key }) => ({
      action: 's3:DeleteObject',
      resource: objectArn({ ...input, Key }, arn),
    })),
  'DynamoDBClient.DescribeTableCommand': (input, _outcome, arn) => [
    { action: 'dynamodb:DescribeTable', resource: tableArn(String(input.TableName), arn) },
  ],
  // A request's warmThroughput (lambdas/preflight/warm-throughput.ts): the reference's UpdateTable row, on the table.
  'DynamoDBClient.UpdateTableCommand': (input, _outcome, arn) => [
    { action: 'dynamodb:UpdateTable', resource: tableArn(String(input.TableName), arn) },
  ],
  // The safety check before an import that can destroy data (lambdas/table-checks/table-safety-check.ts): the reference's
  // DescribeContinuousBackups and Scan rows, on the table.
  'DynamoDBClient.DescribeContinuousBackupsCommand': (input, _outcome, arn) => [
    { action: 'dynamodb:DescribeContinuousBackups', resource: tableArn(String(input.TableName), arn) },
  ],
  // dynamodb:Select is the request's Select (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html).
  'DynamoDBClient.ScanCommand': (input, _outcome, arn) => [
    {
      action: 'dynamodb:Scan',
      resource: tableArn(String(input.TableName), arn),
      context: { 'dynamodb:Select': String(input.Select ?? 'ALL_ATTRIBUTES') },
    },
  ],
  // The ledger of running imports (lambdas/admission/ledger.ts): one action per item operation, on its table
  // (the reference's GetItem, PutItem, UpdateItem, DeleteItem, BatchGetItem rows).
  'DynamoDBClient.DeleteItemCommand': (input, _outcome, arn) => [
    { action: 'dynamodb:DeleteItem', resource: tableArn(String(input.TableName), arn) },
  ],
  'DynamoDBClient.GetItemCommand': (input, _outcome, arn) => [
    { action: 'dynamodb:GetItem', resource: tableArn(String(input.TableName), arn) },
  ],
  'DynamoDBClient.PutItemCommand': (input, _outcome, arn) => [
    { action: 'dynamodb:PutItem', resource: tableArn(String(input.TableName), arn) },
  ],
  'DynamoDBClient.UpdateItemCommand': (input, _outcome, arn) => [
    { action: 'dynamodb:UpdateItem', resource: tableArn(String(input.TableName), arn) },
  ],
  // A transaction needs the action of each of its parts, on each part's table: PutItem for Put, UpdateItem for
  // Update, DeleteItem for Delete, ConditionCheckItem for ConditionCheck (transaction-apis-iam.html).
  'DynamoDBClient.TransactWriteItemsCommand': (input, _outcome, arn) =>
    ((input.TransactItems ?? []) as Record<string, { TableName?: string }>[]).flatMap((part) =>
      Object.entries(part).map(([kind, { TableName }]) => ({
        action: `dynamodb:${{ Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem' }[kind] ?? 'ConditionCheckItem'}`,
        resource: tableArn(String(TableName), arn),
      })),
    ),
  'DynamoDBClient.BatchGetItemCommand': (input, _outcome, arn) =>
    Object.keys((input.RequestItems ?? {}) as Record<string, unknown>).map((table) => ({
      action: 'dynamodb:BatchGetItem',
      resource: tableArn(table, arn),
    })),
  // Lambda (list_awslambda.html): GetFunctionConcurrency on the function resource; GetAccountSettings has no
  // resource type, so only "*" names it.
  'LambdaClient.GetFunctionConcurrencyCommand': (input, _outcome, arn) => [
    { action: 'lambda:GetFunctionConcurrency', resource: functionArn(String(input.FunctionName), arn) },
  ],
  'LambdaClient.GetAccountSettingsCommand': () => [{ action: 'lambda:GetAccountSettings', resource: '*' }],
  // Step Functions (list_awsstepfunctions.html), FindFailedChunk's three reads: ListMapRuns on the execution,
  // ListExecutions of a Map Run's children on the Map Run, DescribeExecution on the (child) execution.
  'SFNClient.ListMapRunsCommand': (input) => [{ action: 'states:ListMapRuns', resource: String(input.executionArn) }],
  'SFNClient.ListExecutionsCommand': (input) => [
    { action: 'states:ListExecutions', resource: String(input.mapRunArn ?? input.stateMachineArn) },
  ],
  'SFNClient.DescribeExecutionCommand': (input) => [
    { action: 'states:DescribeExecution', resource: String(input.executionArn) },
  ],
  // One authorization per table the request writes.
  'DynamoDBClient.BatchWriteItemCommand': (input, _outcome, arn) =>
    Object.keys((input.RequestItems ?? {}) as Record<string, unknown>).map((table) => ({
      action: 'dynamodb:BatchWriteItem',
      resource: tableArn(table, arn),
    })),
  // One authorization per statement, by its verb, on the table it names (ql-iam.html: PartiQLInsert for INSERT,
  // PartiQLUpdate for UPDATE, PartiQLDelete, PartiQLSelect).
  'DynamoDBClient.BatchExecuteStatementCommand': (input, _outcome, arn) =>
    ((input.Statements ?? []) as { Statement: string }[]).map(({ Statement }) => {
      const [, verb, table] = /^(INSERT INTO|UPDATE|DELETE FROM|SELECT .* FROM) "((?:[^"]|"")+)"/.exec(Statement) ?? [];
      const action = { 'INSERT INTO': 'PartiQLInsert', UPDATE: 'PartiQLUpdate', 'DELETE FROM': 'PartiQLDelete' }[verb];
      return {
        action: `dynamodb:${action ?? 'PartiQLSelect'}`,
        resource: tableArn((table ?? '').replaceAll('""', '"'), arn),
      };
    }),
};

/** The permissions `command` of `client` needs, or undefined when the table above does not know the command. */
export function permissionsFor(
  client: string,
  command: string,
  input: Input,
  outcome: Outcome,
  arn: ArnContext,
): Permission[] | undefined {
  return COMMAND_PERMISSIONS[`${client}.${command}`]?.(input, outcome, arn);
}
