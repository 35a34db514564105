import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseStatusCommand, runStatusCommand } from '../../../cli/commands/status.js';
import type { CloudClients } from '../../../cli/cloud/aws/clients.js';
import { lookAtExecution, newFollowMemory, type LookClients } from '../../../cli/cloud/follow/execution-snapshot.js';
import { stackLiveSettings } from '../../../cli/cloud/aws/live-settings.js';
import { createDynamoDbClient } from '../../../lambdas/wiring/sdk-clients.js';
import { startStandIn, type StandIn } from '../../e2e/admission/stand-in.js';
import {
  CHILD,
  EXECUTION,
  HISTORY,
  IMPORTING_NOW_MS,
  MACHINE,
  MAP_RUN,
  MAP_RUN_ANSWER,
  METRICS_ANSWER,
  NAME,
  RUNNING_EXECUTION,
  T0,
} from '../../fixtures/cloud/recorded-execution.js';
import { capture, cloudClients, describeStacksXml } from '../../support/cloud-clients.js';
import { runCli } from '../../e2e/cli-process.js';

/**
 * status of a running deployed import shows its live settings (`rate`, `pause`, `resume`) from the stack's ledger:
 * a line under the progress line, `live` in --json. The stand-in plays CloudFormation, Step Functions, CloudWatch
 * and DynamoDB, and records the exact requests.
 */
const SFN = (operation: string) => `AWSStepFunctions.${operation}`;
const DDB = (operation: string) => `DynamoDB_20120810.${operation}`;
const LEDGER = 'S3DdbImport-LedgerTable1A2B3C';
const PROGRESS = 'importing: 1/4 chunks, 60020 rows, 20 rejected, 2001 rows/s, ETA 20 s';

let standIn: StandIn;
let clients: CloudClients;
beforeAll(async () => {
  standIn = await startStandIn();
  const options = { region: 'us-east-1', credentials: { accessKeyId: 'stand-in', secretAccessKey: 'stand-in' } };
  clients = {
    ...cloudClients(standIn),
    dynamodb: createDynamoDbClient({ ...options, dynamodbEndpoint: standIn.endpoint }),
  };
});
afterAll(() => standIn.close());
beforeEach(() => standIn.requests.splice(0));

/** The recorded execution 30 s into its Map Run; the ledger holds `item` for it (or nothing). */
function importing(outputs: Record<string, string>, item?: { maxWriteRate: string; paused: boolean }) {
  standIn.answers = {
    DescribeStacks: () => describeStacksXml('S3DdbImport', { StateMachineArn: MACHINE, ...outputs }),
    [SFN('DescribeExecution')]: (body) =>
      body.executionArn === CHILD(0)
        ? {
            executionArn: CHILD(0),
            status: 'SUCCEEDED',
            startDate: T0,
            // The ChunkImported state's counts array: chunk, rows, written, rejected, skipped, deleted, writeUnits.
            output: JSON.stringify([0, 25_000, 24_990, 10, 0, 0, 0]),
          }
        : RUNNING_EXECUTION,
    [SFN('GetExecutionHistory')]: (body) => ({
      events: body.reverseOrder ? [...HISTORY.importing].reverse() : HISTORY.importing,
    }),
    [SFN('ListMapRuns')]: () => ({
      mapRuns: [{ executionArn: EXECUTION, mapRunArn: MAP_RUN, stateMachineArn: MACHINE, startDate: T0 + 5 }],
    }),
    [SFN('DescribeMapRun')]: () => MAP_RUN_ANSWER,
    [SFN('ListExecutions')]: () => ({
      executions: [
        { executionArn: CHILD(0), stateMachineArn: MACHINE, name: 'chunk-0', status: 'SUCCEEDED', startDate: T0 + 5 },
      ],
    }),
    'GraniteServiceVersion20100801.GetMetricData': () => METRICS_ANSWER,
    [DDB('GetItem')]: () => ({
      ...(item && {
        Item: {
          pk: { S: `import#${NAME}` },
          table: { S: 'ngrams' },
          lanes: { N: '8' },
          leaseUntil: { N: '1741944713000' },
          maxWriteRate: { N: item.maxWriteRate },
          paused: { BOOL: item.paused },
        },
      }),
    }),
  };
}

/** status as the CLI wires it for the default stack (withLiveSettings, cli/commands/cloud-flags.ts): its clients read the stack's ledger. */
async function status(args: string[], stack: string | null = 'S3DdbImport') {
  const shown = capture();
  const look: LookClients = { ...clients, liveSettings: stackLiveSettings(clients, stack) };
  const code = await runStatusCommand(parseStatusCommand(args), look, shown.output, () => IMPORTING_NOW_MS);
  return { code, ...shown };
}

const LOOK = [
  SFN('DescribeExecution'),
  SFN('GetExecutionHistory'),
  SFN('ListMapRuns'),
  SFN('DescribeMapRun'),
  SFN('ListExecutions'),
  SFN('DescribeExecution'),
  'GraniteServiceVersion20100801.GetMetricData',
];

describe('status <running execution>: the live settings', () => {
  it("shows them on a line under the progress line, read from the stack's ledger table", async () => {
    importing({ LedgerTableName: LEDGER }, { maxWriteRate: '1500', paused: false });
    const run = await status([EXECUTION]);
    expect(run.code).toBe(0);
    expect(run.out).toEqual([`${PROGRESS}\nlive: 8 lanes, at most 1500 items/s`]);
    expect(standIn.requests.map((r) => r.target)).toEqual([...LOOK, 'DescribeStacks', DDB('GetItem')]);
    expect(standIn.requests.at(-1)?.body).toEqual({ TableName: LEDGER, Key: { pk: { S: `import#${NAME}` } } });
  });

  it('adds them to --json as `live`, next to the fields it had', async () => {
    importing({ LedgerTableName: LEDGER }, { maxWriteRate: '0', paused: true });
    const run = await status([NAME, '--json']);
    const view = JSON.parse(run.out[0]);
    expect(view).toMatchObject({ status: 'RUNNING', executionArn: EXECUTION, phase: 'importing' });
    expect(view.live).toEqual({ execution: NAME, table: 'ngrams', lanes: 8, maxWriteRate: 0, paused: true });
    // the name is resolved with the stack once, and the ledger's table with it once more
    expect(standIn.requests.map((r) => r.target)).toEqual([
      'DescribeStacks',
      ...LOOK,
      'DescribeStacks',
      DDB('GetItem'),
    ]);
  });

  it('reads the stack once however many looks a follow takes, and the ledger at each (a pause shows at once)', async () => {
    importing({ LedgerTableName: LEDGER }, { maxWriteRate: '1500', paused: false });
    const look: LookClients = { ...clients, liveSettings: stackLiveSettings(clients, 'S3DdbImport') };
    const memory = newFollowMemory();
    const first = await lookAtExecution(look, EXECUTION, memory, IMPORTING_NOW_MS);
    importing({ LedgerTableName: LEDGER }, { maxWriteRate: '1500', paused: true });
    const second = await lookAtExecution(look, EXECUTION, memory, IMPORTING_NOW_MS + 5000);
    expect([first.snapshot?.live?.paused, second.snapshot?.live?.paused]).toEqual([false, true]);
    const targets = standIn.requests.map((r) => r.target);
    expect(targets.filter((t) => t === 'DescribeStacks')).toHaveLength(1);
    expect(targets.filter((t) => t === DDB('GetItem'))).toHaveLength(2);
  });

  it.each([
    ['the ledger does not hold the import (it holds no lanes)', { LedgerTableName: LEDGER }, undefined, 'S3DdbImport'],
    ['the stack has no LedgerTableName output (an older stack): no ledger read', {}, undefined, 'S3DdbImport'],
    ['--state-machine named no stack: no CloudFormation, no ledger read', { LedgerTableName: LEDGER }, undefined, null],
  ])('says nothing when %s', async (_case, outputs, item, stack) => {
    importing(outputs, item);
    const run = await status([EXECUTION, '--json'], stack);
    expect(JSON.parse(run.out[0])).not.toHaveProperty('live');
    const reads = standIn.requests.map((r) => r.target).slice(LOOK.length);
    expect(reads).toEqual(
      stack === null ? [] : 'LedgerTableName' in outputs ? ['DescribeStacks', DDB('GetItem')] : ['DescribeStacks'],
    );
  });

  it("says nothing when the execution is another stack's (its state machine is not the one the stack outputs)", async () => {
    importing({ LedgerTableName: LEDGER }, { maxWriteRate: '1500', paused: false });
    const answer = standIn.answers.DescribeStacks;
    standIn.answers.DescribeStacks = () =>
      describeStacksXml('S3DdbImport', { StateMachineArn: `${MACHINE}-other`, LedgerTableName: LEDGER });
    const run = await status([EXECUTION]);
    standIn.answers.DescribeStacks = answer;
    expect(run.out).toEqual([PROGRESS]);
    expect(standIn.requests.map((r) => r.target).slice(LOOK.length)).toEqual(['DescribeStacks']);
  });

  it('says nothing, and status still answers, when the ledger cannot be read (e.g. no dynamodb:GetItem)', async () => {
    importing({ LedgerTableName: LEDGER });
    standIn.answers[DDB('GetItem')] = () => ({
      status: 400,
      json: { __type: 'com.amazon.coral.service#AccessDeniedException', message: 'not authorized: dynamodb:GetItem' },
    });
    const run = await status([EXECUTION]);
    expect(run).toMatchObject({ code: 0, out: [PROGRESS] });
  });
});

describe('status as the CLI runs it (its own process, every AWS endpoint the stand-in)', () => {
  it('reads the live settings from the ledger of the stack it resolved the name with, and prints the line', async () => {
    importing({ LedgerTableName: LEDGER }, { maxWriteRate: '1500', paused: true });
    const endpoint = standIn.endpoint;
    const env = {
      AWS_ENDPOINT_URL_CLOUDFORMATION: endpoint,
      AWS_ENDPOINT_URL_SFN: endpoint,
      AWS_ENDPOINT_URL_CLOUDWATCH: endpoint,
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    };
    const run = await runCli(['status', NAME, '--stack', 'Imports'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)).toBe(
      'live: paused, 8 lanes holding their checkpoints (at most 1500 items/s on resume)',
    );
    const stacks = standIn.requests.filter((r) => r.target === 'DescribeStacks').map((r) => r.body);
    expect(stacks).toEqual([1, 2].map(() => expect.objectContaining({ StackName: 'Imports' })));
  });
});
