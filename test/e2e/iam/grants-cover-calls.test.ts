import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { S3DdbImportStack, type S3DdbImportStackProps } from '../../../lib/s3-ddb-import-stack.js';
import { LOCAL_STATE_MACHINE_ARN } from '../../../cli/local-run/runner.js';
import { startStandIn, standInConcurrencySource, type StandIn } from '../admission/stand-in.js';
import { faultWiring } from '../faults/inject.js';
import { withOwnLedger } from '../faults/fixture.js';
import { ensureLedgerTable } from '../../../cli/local-run/local-stack.js';
import { createBucket, createTable } from '../harness.js';
import type { ArnContext } from './call-permissions.js';
import { callsNotAllowed, grantsNotUsed, neededPermissions, type GrantNotCalled } from './check-grants.js';
import { CallLog, OUTSIDE_TASKS, recordCalls, recordClient, stopRecording } from './record-calls.js';
import { SFNClient } from '@aws-sdk/client-sfn';
import { runRecordedImports, type ImportTargets } from './recorded-imports.js';
import { grantsByTask, type Grant } from './template-grants.js';

/**
 * The account the template is resolved for and the recorded ARNs are written in: the local runner's (any 12 digits
 * would do for S3, DynamoDB and Lambda; FindFailedChunk's ListMapRuns names the local execution, in us-east-1 of
 * account 000000000000: cli/local-run/runner.ts).
 */
const ARN: ArnContext = { partition: 'aws', region: 'us-east-1', account: '000000000000' };
/** The Map Run and failed child the stand-in reports for a failed local import (arn formats: API_ListMapRuns, ...). */
const MAP_RUN = `arn:aws:states:us-east-1:000000000000:mapRun:s3-ddb-import-local/ImportChunks:run-1`;
const FAILED_CHILD = `arn:aws:states:us-east-1:000000000000:execution:s3-ddb-import-local/ImportChunks:child-1`;
const SFN = (operation: string) => `AWSStepFunctions.${operation}`;
const KEY_ARN = `arn:aws:kms:${ARN.region}:${ARN.account}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;

/**
 * The one list of grants no recorded call uses, each with its reason. Everything else a function is granted
 * must be used by some call below.
 */
const GRANTS_NOT_CALLED: readonly GrantNotCalled[] = [
  // https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs.html: the execution role needs these
  // for Lambda to upload the function's logs; CreateLogGroup is not granted, the stack creates the log group.
  { action: 'logs:CreateLogStream', reason: "the Lambda service writes the function's own log group, not the SDK" },
  { action: 'logs:PutLogEvents', reason: "the Lambda service writes the function's own log group, not the SDK" },
  // Sent only when an invocation fails after its rejects file went past one part: test/lambdas/wiring/
  // s3-stream-upload.test.ts shows the abort; the recorded imports reject kilobytes.
  { action: 's3:AbortMultipartUpload', reason: 'a rejects file past one part whose invocation fails is aborted' },
];

/** The import function's name as preflight's IMPORT_FUNCTION_NAME gives it, and its ARN in the test account. */
const IMPORT_FUNCTION = 'S3DdbImport-ImportFunction';
const IMPORT_FUNCTION_ARN = `arn:${ARN.partition}:lambda:${ARN.region}:${ARN.account}:function:${IMPORT_FUNCTION}`;

const log = new CallLog(ARN);
let targets: ImportTargets;
let standIn: StandIn;

beforeAll(async () => {
  const ngramsTable = await createTable(['ngram', 'S'], ['year', 'N']);
  const rejectsTable = await createTable(['ngram', 'S'], ['year', 'N']);
  const partsTable = await createTable(['ngram', 'S'], ['year', 'N']);
  // The fault tests' clients (so faults can be injected), and the config the stack gives its functions
  // (REJECTS_PREFIX, ALLOWED_TABLES = its tables).
  const config = { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: [ngramsTable, rejectsTable, partsTable] };
  // Lambda has no local server: the deployed control plane's code and SDK client talk to a stand-in
  // (test/e2e/admission/stand-in.ts), so their calls are recorded like every other. A ledger of its own, so that
  // its first admission makes the lanes item and no other test's imports share its lanes.
  standIn = await startStandIn({
    [`GET /2019-09-30/functions/${IMPORT_FUNCTION}/concurrency`]: () => ({}),
    'GET /2016-08-19/account-settings': () => ({ AccountLimit: { UnreservedConcurrentExecutions: 1000 } }),
    [SFN('ListMapRuns')]: (body) => ({
      mapRuns: [{ executionArn: body.executionArn, mapRunArn: MAP_RUN, stateMachineArn: 'sm', startDate: 1 }],
    }),
    [SFN('ListExecutions')]: () => ({
      executions: [
        { executionArn: FAILED_CHILD, stateMachineArn: 'sm', name: 'child-1', status: 'FAILED', startDate: 1 },
      ],
    }),
    [SFN('DescribeExecution')]: () => ({
      executionArn: FAILED_CHILD,
      stateMachineArn: 'sm',
      status: 'FAILED',
      startDate: 1,
      error: 'BatchWriteFailedError',
      cause: 'the first failed chunk kept being throttled',
    }),
  });
  const sfn = new SFNClient({
    endpoint: standIn.endpoint,
    region: ARN.region,
    credentials: { accessKeyId: 'stand-in', secretAccessKey: 'stand-in' },
  });
  const control = standInConcurrencySource(standIn, IMPORT_FUNCTION);
  targets = {
    wiring: withOwnLedger({ ...faultWiring(), config, control }),
    bucket: await createBucket(),
    ngramsTable,
    rejectsTable,
    partsTable,
    sfn,
  };
  // Made before the recording starts: making it is the local runner's setup, not a handler's call.
  await ensureLedgerTable(targets.wiring.dynamodb, targets.wiring.ledger.tableName);
  recordCalls(targets.wiring, log);
  recordClient(sfn, log);
  await runRecordedImports(targets);
});

afterAll(async () => {
  stopRecording(targets.wiring);
  await standIn.close();
});

const tableNames = () => [targets.ngramsTable, targets.rejectsTable, targets.partsTable];

/** The grants of each function of the real stack, references resolved to the bucket and tables above. */
function stackGrants(props: S3DdbImportStackProps): Grant[] {
  const stack = new S3DdbImportStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Grants', props);
  const template = Template.fromStack(stack).toJSON() as Parameters<typeof grantsByTask>[0];
  const created = stack.node.tryFindChild('Bucket');
  const id = created instanceof s3.Bucket ? stack.getLogicalId(created.node.defaultChild as CfnElement) : undefined;
  const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as CfnElement);
  const { stateMachine, importFunction, ledgerTable } = stack.pipeline;
  const refs = { ...(id ? { [id]: targets.bucket } : {}), [logicalId(stateMachine)]: LOCAL_STATE_MACHINE_ARN };
  const arns = {
    ...(id ? { [id]: `arn:${ARN.partition}:s3:::${targets.bucket}` } : {}),
    [logicalId(importFunction)]: IMPORT_FUNCTION_ARN,
    [logicalId(ledgerTable)]:
      `arn:${ARN.partition}:dynamodb:${ARN.region}:${ARN.account}:table/${targets.wiring.ledger.tableName}`,
  };
  return grantsByTask(template, { ...ARN, refs, arns });
}

describe('the calls the handlers make during local imports', () => {
  it('come from every function, through commands call-permissions.ts maps, and from handlers only', () => {
    expect(new Set(log.calls.map((c) => c.task))).toEqual(
      new Set(['Preflight', 'ImportChunk', 'Summarize', 'FindFailedChunk', 'MirrorScan', 'MirrorParts']),
    );
    expect(log.calls.filter((c) => c.permissions === undefined).map((c) => c.command)).toEqual([]);
    expect(log.calls.filter((c) => c.task === OUTSIDE_TASKS)).toEqual([]);
  });
});

// The recorded imports pre-warm a table (recorded-imports.ts): the stack must allow it to grant UpdateTable.
const newBucket = (): S3DdbImportStackProps => ({ tableNames: tableNames(), allowWarmThroughput: true });
const kmsBucket = (): S3DdbImportStackProps => ({
  ...newBucket(),
  bucketName: targets.bucket,
  bucketKmsKeyArn: KEY_ARN,
});

describe.each([
  ['a new bucket (SSE-S3)', newBucket, undefined],
  ['an existing SSE-KMS bucket', kmsBucket, KEY_ARN],
])('S3DdbImportStack with %s', (_name, props: () => S3DdbImportStackProps, keyArn: string | undefined) => {
  it("allows every call each function made in its function's policy", () => {
    expect(callsNotAllowed(neededPermissions(log.calls, keyArn), stackGrants(props()))).toEqual([]);
  });

  it('grants each function nothing its calls did not use, but what GRANTS_NOT_CALLED explains', () => {
    const needed = neededPermissions(log.calls, keyArn);
    expect(grantsNotUsed(needed, stackGrants(props()), GRANTS_NOT_CALLED)).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('fail when a grant a call needs is missing, naming the function, action, ARN and call', () => {
    const bucketArn = `arn:aws:s3:::${targets.bucket}`;
    const grants = stackGrants(newBucket()).filter((g) => !(g.task === 'ImportChunk' && g.action === 's3:ListBucket'));
    const missing = callsNotAllowed(neededPermissions(log.calls, undefined), grants);
    const call = 'S3Client.GetObjectCommand \\(HTTP 404\\) x\\d+';
    const line = new RegExp(`^ImportChunk calls s3:ListBucket on ${bucketArn} \\(${call}\\)`);
    expect(missing).toEqual([expect.stringMatching(line)]);
  });

  it("fail when a call's request misses the condition its grant carries (a Scan that reads items)", () => {
    const table = `arn:aws:dynamodb:${ARN.region}:${ARN.account}:table/${targets.ngramsTable}`;
    const scan = { task: 'Preflight', action: 'dynamodb:Scan', resource: table, because: 'ScanCommand x1' };
    const grants = stackGrants(newBucket());
    expect(callsNotAllowed([{ ...scan, context: { 'dynamodb:Select': 'COUNT' } }], grants)).toEqual([]);
    const reading = callsNotAllowed([{ ...scan, context: { 'dynamodb:Select': 'ALL_ATTRIBUTES' } }], grants);
    expect(reading).toEqual([expect.stringMatching(/^Preflight calls dynamodb:Scan on .* but its policy/)]);
  });

  it('fail when a grant is never used and not explained', () => {
    const objects = `arn:aws:s3:::${targets.bucket}/*`;
    const extra: Grant = { task: 'Summarize', action: 's3:GetObjectAcl', resource: objects, where: 'X#0' };
    const grants = [...stackGrants(newBucket()), extra];
    const unused = grantsNotUsed(neededPermissions(log.calls, undefined), grants, GRANTS_NOT_CALLED);
    expect(unused).toEqual([`Summarize is granted s3:GetObjectAcl on ${objects} (X#0) but no recorded call used it`]);
  });
});
