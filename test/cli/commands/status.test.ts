import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseStatusCommand, runStatusCommand } from '../../../cli/commands/status.js';
import { startStandIn, type StandIn } from '../../e2e/admission/stand-in.js';
import { createBucket, putText } from '../../e2e/harness.js';
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
  NO_METRICS_ANSWER,
  RUNNING_EXECUTION,
  T0,
  finishedExecution,
} from '../../fixtures/cloud/recorded-execution.js';
import { capture, cloudClients, describeStacksXml } from '../../support/cloud-clients.js';

const SFN = (operation: string) => `AWSStepFunctions.${operation}`;
const METRICS = 'GraniteServiceVersion20100801.GetMetricData';

let standIn: StandIn;
let bucket: string;
const home = process.cwd();
beforeAll(async () => {
  standIn = await startStandIn();
  bucket = await createBucket();
  process.chdir(await mkdtemp(join(tmpdir(), 'status-'))); // rejects are copied to ./s3-ddb-import-rejects
});
afterAll(async () => {
  process.chdir(home);
  await standIn.close();
});

/** The stand-in answers as the recorded execution was at `stage`; each DescribeExecution may move it on. */
function recorded(
  stages: ('scanning' | 'importing' | 'finished')[],
  options: { metrics?: boolean; rejected?: number; failed?: boolean } = {},
) {
  let poll = -1; // each look starts with DescribeExecution, which moves the recording on to its next stage
  const stage = () => stages[Math.min(Math.max(poll, 0), stages.length - 1)];
  standIn.requests.length = 0;
  standIn.answers = {
    DescribeStacks: () =>
      describeStacksXml('S3DdbImport', { StateMachineArn: MACHINE, BucketName: bucket, WatchedPrefixes: '[]' }),
    [SFN('DescribeExecution')]: (body) => {
      if (body.executionArn === CHILD(0))
        return {
          executionArn: CHILD(0),
          status: 'SUCCEEDED',
          startDate: T0,
          // The ChunkImported state's counts array (CHUNK_RESULT_FIELDS): chunk, rows, written, rejected, skipped,
          // deleted, writeUnits, added, changed, unchanged.
          output: JSON.stringify([0, 25_000, 24_990, 10, 0, 0, 0, 0, 0, 0]),
        };
      poll++;
      if (stage() !== 'finished') return RUNNING_EXECUTION;
      if (options.failed)
        return {
          ...RUNNING_EXECUTION,
          status: 'FAILED',
          stopDate: T0 + 50,
          error: 'BatchWriteFailedError',
          cause: 'table ngrams kept throttling past the retry budget',
        };
      return finishedExecution(bucket, options.rejected ?? 0);
    },
    [SFN('GetExecutionHistory')]: (body) => {
      const events = stage() === 'scanning' ? HISTORY.scanning : HISTORY.importing;
      return { events: body.reverseOrder ? [...events].reverse() : events };
    },
    [SFN('ListMapRuns')]: () => ({
      mapRuns: [{ executionArn: EXECUTION, mapRunArn: MAP_RUN, stateMachineArn: MACHINE, startDate: T0 + 5 }],
    }),
    [SFN('DescribeMapRun')]: () => MAP_RUN_ANSWER,
    [SFN('ListExecutions')]: () => ({
      executions: [
        { executionArn: CHILD(0), stateMachineArn: MACHINE, name: 'chunk-0', status: 'SUCCEEDED', startDate: T0 + 5 },
      ],
    }),
    [METRICS]: () => (options.metrics === false ? NO_METRICS_ANSWER : METRICS_ANSWER),
  };
}

const now = () => IMPORTING_NOW_MS;
const status = (args: string[], out: ReturnType<typeof capture>) =>
  runStatusCommand(parseStatusCommand(args), cloudClients(standIn), out.output, now);

describe('s3-ddb-import status <running execution>', () => {
  beforeEach(() => standIn.requests.splice(0));

  it("shows the scan: the latest Preflight output's checkpoint of the object size, and the chunks cut so far", async () => {
    recorded(['scanning']);
    const shown = capture();
    expect(await status([EXECUTION], shown)).toBe(0);
    // 1,600,020 of 4,000,020 bytes = 40%
    expect(shown.out).toEqual(['planning: 1 chunks of 4000020 bytes so far']);
    expect(standIn.requests.map((r) => r.target)).toEqual([SFN('DescribeExecution'), SFN('GetExecutionHistory')]);
    expect(standIn.requests[1].body).toEqual({
      executionArn: EXECUTION,
      reverseOrder: true,
      includeExecutionData: true,
      maxResults: 1000,
    });
  });

  it('shows the import from the Map Run, the metrics and the finished chunks: chunks, rows, rows/s and the ETA', async () => {
    recorded(['importing']);
    const shown = capture();
    expect(await status([NAME, '--json'], shown)).toBe(0);
    // rows: the metrics' 60,000 written + 20 rejected; 60,020 rows in the 30 s since the Map Run started = 2,000.67 rows/s;
    // the file: 25,000 rows in chunk 0's 1,000,000 bytes, so 100,000 rows in 4,000,000; (100,000 - 60,020) / 2,000.67 = 19.98 s.
    const view = JSON.parse(shown.out[0]);
    expect(view).toEqual({
      status: 'RUNNING',
      executionArn: EXECUTION,
      phase: 'importing',
      chunks: { done: 1, total: 4, running: 3, failed: 0 },
      rows: { rows: 60_020, rejected: 20 },
      rate: expect.closeTo(60_020 / 30, 6),
      etaSeconds: expect.closeTo((100_000 - 60_020) / (60_020 / 30), 6),
    });
    // The name is an execution of the stack's state machine.
    expect(standIn.requests.map((r) => r.target)).toEqual([
      'DescribeStacks',
      SFN('DescribeExecution'),
      SFN('GetExecutionHistory'),
      SFN('ListMapRuns'),
      SFN('DescribeMapRun'),
      SFN('ListExecutions'),
      SFN('DescribeExecution'),
      METRICS,
    ]);
    expect(standIn.requests.find((r) => r.target === SFN('ListExecutions'))?.body).toEqual({
      mapRunArn: MAP_RUN,
      statusFilter: 'SUCCEEDED',
      maxResults: 1000,
    });
    expect(standIn.requests.find((r) => r.target === METRICS)?.body).toEqual({
      MetricDataQueries: ['ItemsWritten', 'ItemsRejected'].map((name, i) => ({
        Id: ['written', 'rejected'][i],
        MetricStat: {
          Metric: {
            Namespace: 'S3DdbImport',
            MetricName: name,
            Dimensions: [{ Name: 'StateMachine', Value: 'S3DdbImportStateMachine' }],
          },
          Period: 60,
          Stat: 'Sum',
        },
      })),
      StartTime: T0 + 5,
      EndTime: IMPORTING_NOW_MS / 1000,
    });
  });

  it('counts rows from the finished chunks when there are no metrics', async () => {
    recorded(['importing'], { metrics: false });
    const shown = capture();
    expect(await status([EXECUTION], shown)).toBe(0);
    // chunk 0: 25,000 rows (10 rejected) in 30 s = 833 rows/s; (100,000 - 25,000) / 833.3 = 90 s = 1m30s
    expect(shown.out).toEqual(['importing: 1/4 chunks, 25000 rows, 10 rejected, 833 rows/s, ETA 1m30s']);
  });
});

describe('s3-ddb-import status --follow', () => {
  it('draws each look, then prints the summary as local does, copies the rejects home and exits 2', async () => {
    recorded(['scanning', 'importing', 'finished'], { rejected: 50 });
    await putText(bucket, `s3-ddb-import/rejects/${NAME}/1000020.csv`, 'line,byte_offset,reason,record\n');
    await putText(bucket, `s3-ddb-import/rejects/${NAME}/report.json`, '{}');
    const shown = capture();

    expect(await status([EXECUTION, '--follow', '--poll-s', '0.001'], shown)).toBe(2);
    expect(shown.err).toEqual([
      'planning: 1 chunks of 4000020 bytes so far',
      'importing: 1/4 chunks, 60020 rows, 20 rejected, 2001 rows/s, ETA 20 s',
      expect.stringMatching(
        /^50 rejected rows: 2 files in .*s3-ddb-import-rejects\/ngrams-ngrams-20250314-092653-3fa9c1$/,
      ),
    ]);
    // 99,950 written in the execution's 50 s = 1,999 items/s
    const dir = join(process.cwd(), 's3-ddb-import-rejects', NAME);
    expect(shown.out).toEqual([
      'SUCCEEDED_WITH_REJECTS: 100000 rows, 99950 written, 0 skipped, 50 rejected, 4 chunks into ngrams (put) in 50.0 s (1999 items/s)',
      `rejected rows (line, byte offset, reason, record): ${dir}`,
    ]);
    expect((await readdir(dir)).sort()).toEqual(['1000020.csv', 'report.json']);
    expect(await readFile(join(dir, '1000020.csv'), 'utf8')).toBe('line,byte_offset,reason,record\n');
  });

  it.each([
    [
      'every row landed, recorded with the first counts only (the later counts read as 0, put, not a dry run)',
      { rejected: 0 },
      0,
      {
        status: 'SUCCEEDED',
        rows: 100_000,
        written: 100_000,
        rejected: 0,
        // finishedExecution's recorded output holds the first counts only: the rest read as 0, put, not a dry run.
        skipped: 0,
        deleted: 0,
        mode: 'put',
        dryRun: false,
        writeUnits: 0,
        added: 0, // sync's counts (issue 36): 0 in put mode
        changed: 0,
        unchanged: 0,
        chunks: 4,
        rejectsKey: null,
        rejectsDir: null,
      },
    ],
    [
      'the execution failed',
      { failed: true },
      1,
      {
        status: 'FAILED',
        error: 'BatchWriteFailedError',
        message: 'table ngrams kept throttling past the retry budget',
      },
    ],
  ])('exits as local does when %s, with the same --json object', async (_case, options, code, json) => {
    recorded(['finished'], options);
    const shown = capture();
    expect(await status([EXECUTION, '--follow', '--json'], shown)).toBe(code);
    expect(JSON.parse(shown.out.at(-1)!)).toEqual({
      ...json,
      durationMs: 50_000,
      executionArn: EXECUTION,
      ...(code === 0 ? { table: 'ngrams' } : {}),
    });
  });
});

describe('s3-ddb-import status <an execution that does not exist>', () => {
  it('fails with a CloudCommandError naming what to check (the API error class ExecutionDoesNotExist)', async () => {
    standIn.answers = {
      [SFN('DescribeExecution')]: () => ({
        status: 400,
        json: { __type: 'ExecutionDoesNotExist', message: 'Execution Does Not Exist' },
      }),
    };
    const error = await status([EXECUTION], capture()).catch((e: Error) => e);
    expect(error).toMatchObject({
      name: 'CloudCommandError',
      message: `no execution ${EXECUTION}: check the name (s3-ddb-import start prints it), --stack and AWS_REGION`,
    });
  });
});
