import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../../cli/commands/run-cli.js';
import type { LiveAction } from '../../../cli/commands/live-args.js';
import { liveCommand } from '../../../cli/commands/live-commands.js';
import type { CloudClients } from '../../../cli/cloud/aws/clients.js';
import { createDynamoDbClient } from '../../../lambdas/wiring/sdk-clients.js';
import { startStandIn, type StandIn } from '../../e2e/admission/stand-in.js';
import { EXECUTION, MACHINE, NAME } from '../../fixtures/cloud/recorded-execution.js';
import { capture, cloudClients, describeStacksXml } from '../../support/cloud-clients.js';
import { lastJsonLine, runCli } from '../../e2e/cli-process.js';

/**
 * `rate`, `pause`, `resume` against a deployed stack: CloudFormation and DynamoDB are the stand-in, which records
 * the exact requests the SDK clients send and answers as AWS would.
 */
const DDB = (operation: string) => `DynamoDB_20120810.${operation}`;
const LEDGER = 'S3DdbImport-LedgerTable1A2B3C';

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

/** The import's item after the update (UpdateItem's ReturnValues ALL_NEW). */
const importItem = (over: { maxWriteRate?: string; paused?: boolean } = {}) => ({
  pk: { S: `import#${NAME}` },
  table: { S: 'ngrams' },
  lanes: { N: '8' },
  leaseUntil: { N: '1741944713000' },
  maxWriteRate: { N: over.maxWriteRate ?? '500' },
  paused: { BOOL: over.paused ?? false },
});

function deployed(outputs: Record<string, string> = { LedgerTableName: LEDGER }) {
  standIn.answers = {
    DescribeStacks: (body) => describeStacksXml(String(body.StackName), { StateMachineArn: MACHINE, ...outputs }),
    [DDB('UpdateItem')]: (body) => {
      const values = body.ExpressionAttributeValues as Record<string, { N?: string; BOOL?: boolean }>;
      return { Attributes: importItem({ maxWriteRate: values[':rate']?.N, paused: values[':paused']?.BOOL }) };
    },
  };
}

/** The command as the CLI runs it (runCommand: exit code, errors on stderr), its clients the stand-in's. */
function live(kind: LiveAction['kind'], args: string[]) {
  const shown = capture();
  return runCommand(
    liveCommand(kind, () => clients),
    args,
    shown.output,
  ).then((code) => ({ code, ...shown }));
}

const update = (expression: string, values: Record<string, unknown>, table = LEDGER) => ({
  TableName: table,
  Key: { pk: { S: `import#${NAME}` } },
  UpdateExpression: expression,
  ConditionExpression: 'attribute_exists(pk)',
  ExpressionAttributeValues: values,
  ReturnValues: 'ALL_NEW',
});

describe('rate, pause and resume against the deployed stack', () => {
  it("rate: finds the ledger in the stack's LedgerTableName output and sets the rate in one conditional UpdateItem", async () => {
    deployed();
    const run = await live('rate', [NAME, '1500', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out.at(-1)!)).toEqual({
      execution: NAME,
      table: 'ngrams',
      lanes: 8,
      maxWriteRate: 1500,
      paused: false,
    });
    expect(standIn.requests.map((r) => [r.target, r.body])).toEqual([
      ['DescribeStacks', { Action: 'DescribeStacks', Version: '2010-05-15', StackName: 'S3DdbImport' }],
      [DDB('UpdateItem'), update('SET maxWriteRate = :rate', { ':rate': { N: '1500' } })],
    ]);
  });

  it('pause: an execution ARN is cut to its name; --stack names the stack', async () => {
    deployed();
    const run = await live('pause', [EXECUTION, '--stack', 'Imports']);
    expect(run.code).toBe(0);
    expect(run.out).toEqual([
      `${NAME}: paused (8 lanes into ngrams stop at their next record boundary and hold their checkpoints; ` +
        `s3-ddb-import resume ${NAME} goes on)`,
    ]);
    expect(standIn.requests.map((r) => [r.target, r.body])).toEqual([
      ['DescribeStacks', { Action: 'DescribeStacks', Version: '2010-05-15', StackName: 'Imports' }],
      [DDB('UpdateItem'), update('SET paused = :paused', { ':paused': { BOOL: true } })],
    ]);
  });

  it('resume: --ledger-table skips CloudFormation', async () => {
    deployed();
    const run = await live('resume', [NAME, '--ledger-table', 'my-ledger', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out.at(-1)!)).toMatchObject({ execution: NAME, paused: false });
    expect(standIn.requests.map((r) => [r.target, r.body])).toEqual([
      [DDB('UpdateItem'), update('SET paused = :paused', { ':paused': { BOOL: false } }, 'my-ledger')],
    ]);
  });

  it('fails when no running import of that name holds lanes: exit 1, the name, and the imports that do', async () => {
    deployed();
    standIn.answers[DDB('UpdateItem')] = () => ({
      status: 400,
      json: {
        __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
        message: 'The conditional request failed',
      },
    });
    // The imports' own items, as the ledger's Scan returns them (the lanes item holds counters only).
    const holder = (execution: string, table: string, lanes: number) => ({
      pk: { S: `import#${execution}` },
      table: { S: table },
      lanes: { N: String(lanes) },
      capped: { BOOL: false },
    });
    standIn.answers[DDB('Scan')] = () => ({
      Items: [{ pk: { S: 'lanes' }, poolHeld: { N: '40' } }, holder('a', 'ngrams', 8), holder('b', 'books', 32)],
    });
    const run = await live('rate', [NAME, '10', '--json']);
    expect(run.code).toBe(1);
    const message =
      `no running import named "${NAME}" holds lanes in ledger table ${LEDGER} ` +
      '(running now: a (8 lanes into ngrams), b (32 lanes into books)). An import holds lanes from the end of its ' +
      'scan to its end: `s3-ddb-import status <name>` shows where a deployed one is';
    expect(run.err).toEqual([`rate failed: NoRunningImportError: ${message}`]);
    expect(JSON.parse(run.out.at(-1)!)).toEqual({ status: 'FAILED', error: 'NoRunningImportError', message });
    expect(standIn.requests.map((r) => [r.target, r.body])).toEqual([
      ['DescribeStacks', { Action: 'DescribeStacks', Version: '2010-05-15', StackName: 'S3DdbImport' }],
      [DDB('UpdateItem'), update('SET maxWriteRate = :rate', { ':rate': { N: '10' } })],
      [DDB('Scan'), { TableName: LEDGER }],
    ]);
  });

  it('fails when the stack has no LedgerTableName output (deployed before it), naming the fix; writes nothing', async () => {
    deployed({});
    const run = await live('pause', [NAME]);
    expect(run.code).toBe(1);
    expect(run.err).toEqual([
      'pause failed: CloudCommandError: stack "S3DdbImport" has no LedgerTableName output: it was deployed before ' +
        'running imports could be changed; deploy this version (npx cdk deploy), or give --ledger-table T',
    ]);
    expect(standIn.requests.map((r) => r.target)).toEqual(['DescribeStacks']);
  });

  it('fails when a flag is wrong: the problem in one line and where the help is, on stderr, nothing sent', async () => {
    const run = await live('rate', [NAME, '1500', '--region', 'eu-west-1']);
    expect(run.code).toBe(1);
    expect(run.err).toEqual(['error: unknown flag --region', 'see: s3-ddb-import rate --help']);
    expect(standIn.requests).toEqual([]);
  });
});

describe('rate as the CLI runs it (its own process, CloudFormation and DynamoDB the stand-in)', () => {
  it('reads the stack, updates its ledger and prints the live settings', async () => {
    deployed();
    const env = { AWS_ENDPOINT_URL_CLOUDFORMATION: standIn.endpoint, AWS_ENDPOINT_URL_DYNAMODB: standIn.endpoint };
    const run = await runCli(['rate', NAME, '750', '--json'], { env });
    expect(run.code).toBe(0);
    expect(lastJsonLine(run.stdout)).toEqual({
      execution: NAME,
      table: 'ngrams',
      lanes: 8,
      maxWriteRate: 750,
      paused: false,
    });
    expect(standIn.requests.map((r) => r.target)).toEqual(['DescribeStacks', DDB('UpdateItem')]);
  });
});
