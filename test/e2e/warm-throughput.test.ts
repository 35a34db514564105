import { gzipSync } from 'node:zlib';
import { CreateTableCommand, waitUntilTableExists, type DescribeTableCommandOutput } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { outOfTimeAfter } from '../../cli/local-run/runner.js';
import { DEFAULT_REJECTS_PREFIX } from '../../lambdas/environment/config.js';
import { createWiring, type Wiring } from '../../lambdas/wiring/wiring.js';
import { NGRAM_TYPES, letterFile } from './sources/letters.js';
import { createBucket, createTable, dynamodb, putText, runImport, scanAll, uniqueName } from './harness.js';

/**
 * The local engine's warm throughput is not AWS's: ministack's DescribeTable reports `WarmThroughput` of 0 write units/s
 * for every table, and it accepts an UpdateTable that sets one without ever reflecting it (docs/limits.md, "The local
 * engine"). So these tests run the real workflow against the real engine, with middleware on the handlers' own
 * DynamoDB client that (a) puts in DescribeTable's answer the WarmThroughput AWS reports (a new on-demand table: 4,000
 * write units/s), or removes it to stand for a server that has none, and (b) records each UpdateTable exactly as the
 * client serialized it (its X-Amz-Target and JSON body, at the `build` step, before signing) and answers it in the
 * engine's place. Every other call, BatchWriteItem included, reaches the engine.
 */
interface Call {
  readonly call: 'DescribeTable' | 'UpdateTable' | 'BatchWriteItem';
  readonly target?: string;
  readonly body?: unknown;
}

type Next = (args: { input: { TableName?: string }; request?: unknown }) => Promise<{ output: unknown }>;
type Middleware = (next: Next, context: { commandName?: string }) => Next;

function add(stack: { add(mw: never, options: never): void }, step: string, mw: Middleware): void {
  stack.add(mw as never, { step, name: `warm-${step}`, priority: 'low' } as never);
}

/**
 * The wiring the handlers run with, its DynamoDB calls logged in order; `warm`: what DescribeTable reports for the
 * table, `indexWarm`: for each of its global secondary indexes (AWS reports each index's own).
 */
function recordingWiring(
  table: string,
  warm: number | null,
  indexWarm: number | null = null,
): { wiring: Wiring; calls: Call[] } {
  const wiring = createWiring({ config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null } });
  const calls: Call[] = [];
  add(wiring.dynamodb.middlewareStack, 'initialize', (next, context) => async (args) => {
    if (context.commandName !== 'DescribeTableCommand' || args.input.TableName !== table) return next(args);
    calls.push({ call: 'DescribeTable' });
    const result = await next(args);
    const output = result.output as DescribeTableCommandOutput;
    // ministack reports a WarmThroughput of 0 for every table; AWS reports the table's real one, and null here
    // stands for a server that reports none at all.
    if (warm !== null)
      Object.assign(output.Table!, { WarmThroughput: { WriteUnitsPerSecond: warm, Status: 'ACTIVE' } });
    else delete output.Table!.WarmThroughput;
    for (const index of output.Table!.GlobalSecondaryIndexes ?? []) {
      if (indexWarm !== null)
        Object.assign(index, { WarmThroughput: { WriteUnitsPerSecond: indexWarm, Status: 'ACTIVE' } });
    }
    return result;
  });
  add(wiring.dynamodb.middlewareStack, 'build', (next, context) => async (args) => {
    if (context.commandName !== 'UpdateTableCommand') return next(args);
    const request = args.request as { headers: Record<string, string>; body: string };
    calls.push({ call: 'UpdateTable', target: request.headers['x-amz-target'], body: JSON.parse(request.body) });
    return { output: { TableDescription: { TableName: table }, $metadata: {} }, response: {} } as never;
  });
  add(wiring.writeTransport.middlewareStack as never, 'initialize', (next) => async (args) => {
    if (calls.at(-1)?.call !== 'BatchWriteItem') calls.push({ call: 'BatchWriteItem' });
    return next(args);
  });
  return { wiring, calls };
}

/**
 * 12,000 1-gram rows as a .gz that is staged (~90 KB of gzip, expected to hold 4 x that: over 128 KiB chunks), so
 * preflight runs over several invocations, one piece each with a clock out of time at its first check; a fresh
 * on-demand table, and the request.
 */
async function setUp() {
  const { text, rows } = letterFile('w', 12_000);
  const bucket = await createBucket();
  await putText(bucket, 'warm/1gram-w.tsv.gz', gzipSync(text));
  const table = await createTable(['ngram', 'S'], ['year', 'N']);
  return { table, rows, request: { bucket, key: 'warm/1gram-w.tsv.gz', table, types: NGRAM_TYPES, chunkMiB: 0.125 } };
}

/** The 1-gram table's key (ngram, year:N), for the tables these tests create with settings of their own. */
const NGRAM_KEYS = {
  KeySchema: [
    { AttributeName: 'ngram', KeyType: 'HASH' as const },
    { AttributeName: 'year', KeyType: 'RANGE' as const },
  ],
  AttributeDefinitions: [
    { AttributeName: 'ngram', AttributeType: 'S' as const },
    { AttributeName: 'year', AttributeType: 'N' as const },
  ],
};

describe('warmThroughput: preflight pre-warms an on-demand table before the first write', () => {
  it('sends one UpdateTable with WarmThroughput.WriteUnitsPerSecond, before any BatchWriteItem, when the table takes less', async () => {
    const { table, rows, request } = await setUp();
    const { wiring, calls } = recordingWiring(table, 4_000);

    // Preflight is out of time at its first check: the scan takes several invocations, the pre-warm only the first.
    const { summary, preflightCalls } = await runImport(
      { ...request, warmThroughput: 12_000 },
      { wiring, clocks: { Preflight: outOfTimeAfter(1) }, executionName: uniqueName('warm') },
    );

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length });
    expect(preflightCalls.length).toBeGreaterThan(2);
    expect(calls.map((c) => c.call)).toEqual(['DescribeTable', 'UpdateTable', 'BatchWriteItem']);
    expect(calls[1]).toEqual({
      call: 'UpdateTable',
      target: 'DynamoDB_20120810.UpdateTable',
      body: { TableName: table, WarmThroughput: { WriteUnitsPerSecond: 12_000 } },
    });
  });

  it.each([
    ['the table already takes as much at once (warm throughput is never lowered)', 12_000],
    ['the server reports no warm throughput (an emulator that has none)', null],
  ])('sends no UpdateTable when %s, and imports', async (_, warm) => {
    const { table, rows, request } = await setUp();
    const { wiring, calls } = recordingWiring(table, warm);

    const { summary } = await runImport({ ...request, warmThroughput: 12_000 }, { wiring });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', written: rows.length });
    expect(calls.map((c) => c.call)).toEqual(['DescribeTable', 'BatchWriteItem']);
  });

  it('warms a global secondary index too, in the same UpdateTable, when the index takes less than asked', async () => {
    const { rows, request } = await setUp();
    const table = uniqueName('e2e-gsi');
    await dynamodb.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        ...NGRAM_KEYS,
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byYear',
            KeySchema: [{ AttributeName: 'year', KeyType: 'HASH' }],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
        ],
      }),
    );
    await waitUntilTableExists({ client: dynamodb, maxWaitTime: 60 }, { TableName: table });
    // The table is warm already; its index is not: every row holds `year`, so every item lands in it.
    const { wiring, calls } = recordingWiring(table, 12_000, 4_000);

    const { summary } = await runImport({ ...request, table, warmThroughput: 12_000 }, { wiring });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', written: rows.length });
    expect(calls.map((c) => c.call)).toEqual(['DescribeTable', 'UpdateTable', 'BatchWriteItem']);
    expect(calls[1].body).toEqual({
      TableName: table,
      GlobalSecondaryIndexUpdates: [
        { Update: { IndexName: 'byYear', WarmThroughput: { WriteUnitsPerSecond: 12_000 } } },
      ],
    });
  });

  it('fails when the table is provisioned, with InvalidRequestError before any write or UpdateTable', async () => {
    const { request } = await setUp();
    const table = uniqueName('e2e-provisioned');
    await dynamodb.send(
      new CreateTableCommand({
        TableName: table,
        ...NGRAM_KEYS,
        ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
      }),
    );
    await waitUntilTableExists({ client: dynamodb, maxWaitTime: 60 }, { TableName: table });
    const { wiring, calls } = recordingWiring(table, 5);

    const outcome = await runImport({ ...request, table, warmThroughput: 12_000 }, { wiring }).catch((e: Error) => e);

    expect(outcome).toMatchObject({
      name: 'InvalidRequestError',
      message: expect.stringContaining(`warmThroughput: for on-demand tables only; "${table}" is provisioned`),
    });
    expect(calls.map((c) => c.call)).toEqual(['DescribeTable']);
    expect(await scanAll(table)).toEqual([]);
  });
});
