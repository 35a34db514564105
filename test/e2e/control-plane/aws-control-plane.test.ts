import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, standInControlPlane, type StandIn } from './stand-in.js';

const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:S3DdbImport';
const execution = (name: string) => `arn:aws:states:us-east-1:123456789012:execution:S3DdbImport:${name}`;
const LIST = 'AWSStepFunctions.ListExecutions';
const DESCRIBE = 'AWSStepFunctions.DescribeExecution';

let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn();
});
afterAll(() => standIn.close());

describe('the deployed control plane (lambdas/control-plane/control-plane-aws.ts)', () => {
  it("lists the running executions page by page and reads each one's table from its input", async () => {
    standIn.requests.length = 0;
    const pages: Record<string, unknown> = {
      first: {
        executions: [{ executionArn: execution('a'), startDate: 1_700_000_000, status: 'RUNNING' }],
        nextToken: 'page-2',
      },
      'page-2': { executions: [{ executionArn: execution('b'), startDate: 1_700_000_060, status: 'RUNNING' }] },
    };
    const inputs: Record<string, string> = {
      [execution('a')]: JSON.stringify({ bucket: 'b', key: 'k', table: 'ngrams' }),
      [execution('b')]: 'not json',
    };
    standIn.answers = {
      [LIST]: (body) => pages[(body.nextToken as string | undefined) ?? 'first'],
      [DESCRIBE]: (body) => ({ input: inputs[body.executionArn as string] }),
    };
    // This execution started after both: both may be ahead of it.
    const self = { id: execution('self'), startTime: '2023-11-14T23:00:00.000Z' };
    const running = await standInControlPlane(standIn, null).runningImports(MACHINE, self);

    expect(running).toEqual([
      { id: execution('a'), startTime: '2023-11-14T22:13:20.000Z', table: 'ngrams' },
      { id: execution('b'), startTime: '2023-11-14T22:14:20.000Z', table: null },
    ]);
    expect(standIn.requests.map(({ target, body }) => ({ target, body }))).toEqual([
      { target: LIST, body: { stateMachineArn: MACHINE, statusFilter: 'RUNNING' } },
      { target: DESCRIBE, body: { executionArn: execution('a') } },
      { target: LIST, body: { stateMachineArn: MACHINE, statusFilter: 'RUNNING', nextToken: 'page-2' } },
      { target: DESCRIBE, body: { executionArn: execution('b') } },
    ]);
  });

  it('describes only executions that started no later than the one asking, and never the one asking', async () => {
    standIn.requests.length = 0;
    const self = { id: execution('self'), startTime: '2023-11-14T22:14:00.000Z' };
    standIn.answers = {
      [LIST]: () => ({
        executions: [
          { executionArn: execution('earlier'), startDate: 1_700_000_000, status: 'RUNNING' },
          { executionArn: self.id, startDate: 1_700_000_040, status: 'RUNNING' },
          { executionArn: execution('later'), startDate: 1_700_000_100, status: 'RUNNING' },
        ],
      }),
      [DESCRIBE]: () => ({ input: JSON.stringify({ table: 'ngrams' }) }),
    };
    const running = await standInControlPlane(standIn, null).runningImports(MACHINE, self);

    expect(running.map((r) => r.id)).toEqual([execution('earlier')]);
    expect(standIn.requests.filter((r) => r.target === DESCRIBE).map((r) => r.body)).toEqual([
      { executionArn: execution('earlier') },
    ]);
  });

  it("reads the import function's reservation, and the account's unreserved concurrency only without one", async () => {
    standIn.requests.length = 0;
    standIn.answers = {
      'GET /2019-09-30/functions/import-fn/concurrency': () => ({}),
      'GET /2016-08-19/account-settings': () => ({
        AccountLimit: { ConcurrentExecutions: 10, UnreservedConcurrentExecutions: 10 },
      }),
    };
    expect(await standInControlPlane(standIn, 'import-fn').importConcurrency()).toEqual({
      reserved: null,
      unreserved: 10,
    });
    expect(standIn.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /2019-09-30/functions/import-fn/concurrency',
      'GET /2016-08-19/account-settings',
    ]);

    standIn.requests.length = 0;
    standIn.answers['GET /2019-09-30/functions/import-fn/concurrency'] = () => ({ ReservedConcurrentExecutions: 12 });
    expect(await standInControlPlane(standIn, 'import-fn').importConcurrency()).toEqual({
      reserved: 12,
      unreserved: null,
    });
    expect(standIn.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /2019-09-30/functions/import-fn/concurrency',
    ]);
  });

  it('asks nothing when it does not know the import function (no IMPORT_FUNCTION_NAME)', async () => {
    standIn.requests.length = 0;
    expect(await standInControlPlane(standIn, null).importConcurrency()).toBeNull();
    expect(standIn.requests).toEqual([]);
  });
});
