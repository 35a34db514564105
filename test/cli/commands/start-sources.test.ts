import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStartCommand, runStartCommand } from '../../../cli/commands/start.js';
import { ensureTable } from '../../../cli/local-run/local-stack.js';
import { startStandIn, type StandIn } from '../../e2e/admission/stand-in.js';
import { dynamodb } from '../../e2e/harness.js';
import { capture, cloudClients, describeStacksXml } from '../../support/cloud-clients.js';

const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:S3DdbImportStateMachine';
const START = 'AWSStepFunctions.StartExecution';

let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn();
  await ensureTable(dynamodb, 'ngrams', { name: 'id', type: 'S' });
});
afterAll(() => standIn.close());

/** A deployed stack with `sources`, as the stand-in answers for it: its outputs, and StartExecution. */
function stackWithSources(sourceBuckets: string[]) {
  standIn.requests.length = 0;
  standIn.answers = {
    DescribeStacks: () =>
      describeStacksXml('S3DdbImport', {
        StateMachineArn: MACHINE,
        BucketName: 'own-bucket',
        WatchedPrefixes: '[]',
        SourceBuckets: JSON.stringify(sourceBuckets),
      }),
    [START]: (body) => ({ executionArn: `${MACHINE}:${body.name}`, startDate: 1_741_944_413 }),
  };
}

describe('start s3://<another source>/... (issue 38, sources)', () => {
  it.each([
    ['an object', 's3://partner-exports/in/a.csv', { bucket: 'partner-exports', key: 'in/a.csv' }],
    ['a folder', 's3://partner-exports/in/', { bucket: 'partner-exports', prefix: 'in/' }],
  ])('starts an import of %s in a bucket the stack lists as a source', async (_, url, expected) => {
    stackWithSources(['partner-exports', 'archive']);
    const command = parseStartCommand([url, '--table', 'ngrams']);

    expect(await runStartCommand(command, cloudClients(standIn), capture().output)).toBe(0);
    const started = standIn.requests.filter((r) => r.target === START);
    expect(JSON.parse((started[0].body as { input: string }).input)).toMatchObject(expected);
  });

  it('passes a key with a space, +, % and non-ASCII on as typed, never decoded (issue 38, risk 6)', async () => {
    stackWithSources([]);
    const command = parseStartCommand(['s3://own-bucket/in/a%20b+c é.tsv', '--table', 'ngrams']);

    expect(await runStartCommand(command, cloudClients(standIn), capture().output)).toBe(0);
    const started = standIn.requests.filter((r) => r.target === START);
    expect(JSON.parse((started[0].body as { input: string }).input)).toMatchObject({ key: 'in/a%20b+c é.tsv' });
  });

  it('fails for a bucket the stack does not list, naming every bucket it reads, before starting anything', async () => {
    stackWithSources(['partner-exports']);
    const command = parseStartCommand(['s3://stranger/a.csv', '--table', 'ngrams']);

    const error = await runStartCommand(command, cloudClients(standIn), capture().output).catch((e: Error) => e);
    expect(error).toMatchObject({
      name: 'InvalidRequestError',
      message:
        'invalid request: bucket: "stranger" is not a bucket this deployment reads (own-bucket, partner-exports)',
    });
    expect(standIn.requests.map((r) => r.target)).toEqual(['DescribeStacks']);
  });
});
