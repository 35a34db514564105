import { CreateTableCommand, DeleteTableCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MEMORY_MB, PRICES } from '../../../cli/cloud/estimate/estimate-model.js';
import { PRICED_AS } from '../../../cli/cloud/estimate/estimate-modes.js';
import { parseEstimateCommand, runEstimateCommand } from '../../../cli/commands/estimate.js';
import { createBucket, createTable, dynamodb, putText, uniqueName } from '../../e2e/harness.js';
import type { StandIn } from '../../e2e/admission/stand-in.js';
import { capture, cloudClients } from '../../support/cloud-clients.js';

/**
 * A fixed-width TSV, so every figure can be worked out by hand: a 14-byte header ("id\tyear\tcount\n") and
 * 200,000 rows of 22 bytes ("id-0000001\t1990\t10001\n"), 4,400,014 bytes in all. Each row is a 28-byte item:
 * "id" 2 + 10, "year" 4 + N 1990 (4 digits: 4/2 + 1 = 3 bytes), "count" 5 + N of 5 digits (5/2 rounded up + 1 = 4):
 * 12 + 7 + 9 = 28 bytes, one write unit. The first MiB holds (1,048,576 - 14) / 22 = 47,661 whole rows.
 */
const ROWS = 200_000;
const SIZE = 14 + ROWS * 22;
const tsv = () =>
  `id\tyear\tcount\n${Array.from({ length: ROWS }, (_, i) => `id-${String(i).padStart(7, '0')}\t${1900 + (i % 100)}\t${10_000 + (i % 90_000)}\n`).join('')}`;

let bucket: string;
beforeAll(async () => {
  bucket = await createBucket();
  await putText(bucket, 'imports/fixed.tsv', tsv());
});

/** No stand-in: estimate calls only S3 and DynamoDB, both the local engine. */
const clients = () => cloudClients({ endpoint: 'http://127.0.0.1:9' } as StandIn);

async function estimate(args: string[]) {
  const shown = capture();
  const code = await runEstimateCommand(
    parseEstimateCommand([`s3://${bucket}/imports/fixed.tsv`, ...args, '--json']),
    clients(),
    shown.output,
  );
  return { code, json: JSON.parse(shown.out.at(-1)!) };
}

/**
 * Provisioned tables made here, dropped after: AWS caps the provisioned write units of all tables together at 80,000
 * per account and Region by default (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html),
 * and a server shared by several runs would otherwise reach it where an engine enforces it.
 */
const provisioned: string[] = [];
afterAll(async () => {
  await Promise.all(provisioned.map((TableName) => dynamodb.send(new DeleteTableCommand({ TableName }))));
});

async function provisionedTable(writeUnits: number): Promise<string> {
  const table = uniqueName('estimate');
  await dynamodb.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PROVISIONED',
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: writeUnits },
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    }),
  );
  provisioned.push(table);
  await waitUntilTableExists({ client: dynamodb, maxWaitTime: 60 }, { TableName: table });
  return table;
}

const lambdaGbSeconds = (lanes: number, importSeconds: number) => lanes * importSeconds * (IMPORT_MEMORY_MB / 1024);

describe('s3-ddb-import estimate (a real S3 object, a real DynamoDB table, in the local engine)', () => {
  it("on demand: 200,000 rows of one write unit; a new on-demand table takes 4,000/s, under one lane's 12,000: the table binds", async () => {
    const table = await createTable(['id', 'S']);
    const { code, json } = await estimate(['--table', table, '--types', 'year=N,count=N']);
    expect(code).toBe(0);
    expect(json).toMatchObject({
      objects: 1,
      bytes: SIZE,
      sample: {
        bytes: 1_048_576,
        headerBytes: 14,
        rows: 47_661,
        rowBytes: 47_661 * 22,
        bytesPerRow: 22,
        rejected: 0,
        averageItemBytes: 28,
        writeUnitsPerItem: 1,
      },
      table: { name: table, billingMode: 'PAY_PER_REQUEST', writeUnitsPerSecond: 4000, from: 'a new on-demand table' },
      rows: ROWS,
      items: ROWS,
      writeUnits: ROWS,
      chunks: 1,
      lanes: 1,
      itemsPerSecond: { table: 4000, lanes: 12_000, maxWriteRate: null },
      binding: 'table',
      importSeconds: 50, // 200,000 / 4,000
    });
    expect(json.scanSeconds).toBe(0); // preflight cuts the object from its size: no byte scan
    // $0.625 per million write units; Lambda: one lane for 50 s at 1,769 MB
    expect(json.costUsd.dynamodb).toBeCloseTo((ROWS / 1e6) * PRICES.onDemandWritePerMillion, 9);
    expect(json.lambdaGbSeconds).toBeCloseTo(lambdaGbSeconds(1, 50), 9);
    expect(json.costUsd.lambda).toBeCloseTo(lambdaGbSeconds(1, 50) * PRICES.lambdaArmGbSecond, 9);
  });

  it('provisioned at 500 WCU: 400 s, and the capacity held for that time is the DynamoDB cost', async () => {
    const { json } = await estimate(['--table', await provisionedTable(500), '--types', 'year=N,count=N']);
    expect(json).toMatchObject({
      table: { billingMode: 'PROVISIONED', writeUnitsPerSecond: 500, from: 'provisioned' },
      binding: 'table',
      importSeconds: 400,
    });
    expect(json.costUsd.dynamodb).toBeCloseTo(500 * (400 / 3600) * PRICES.provisionedWcuHour, 9);
  });

  it('provisioned at 40,000 WCU with 1 MiB chunks and 2 lanes: 5 chunks, 2 at once, 24,000 items/s: the lanes bind', async () => {
    // 4,400,000 data bytes / 1 MiB = 4.2: 5 chunks
    const { json } = await estimate([
      '--table',
      await provisionedTable(40_000),
      '--chunk-mib',
      '1',
      '--concurrency',
      '2',
    ]);
    expect(json).toMatchObject({
      chunks: 5,
      lanes: 2,
      itemsPerSecond: { table: 40_000, lanes: 24_000 },
      binding: 'lanes',
    });
    expect(json.importSeconds).toBeCloseTo(ROWS / 24_000, 9);
  });

  it('prints readable lines without --json (no --types: year and count are strings, 12 + 8 + 10 = 30-byte items)', async () => {
    const table = await createTable(['id', 'S']);
    const shown = capture();
    await runEstimateCommand(
      parseEstimateCommand([`s3://${bucket}/imports/fixed.tsv`, '--table', table, '--max-write-rate', '1000']),
      clients(),
      shown.output,
    );
    expect(shown.out).toEqual([
      `source: s3://${bucket}/imports/fixed.tsv: 1 object(s), 4,400,014 bytes`,
      'sample: first 1,048,576 bytes: 47,661 rows of 22.0 bytes, items of 30 bytes (1.00 write units each), 0 would be rejected',
      'rows: ~200,000; items: ~200,000; write units: ~200,000',
      `table ${table}: on-demand, 4,000 write units/s (a new on-demand table): ~4,000 items/s`,
      'lanes: 1 chunks of 64 MiB, 1 at once: ~12,000 items/s of Lambda CPU (12,000 each)',
      // 200,000 items at the 1,000/s cap: 200 s; one lane for 200 s at 1,769 MB = 345.5 GB-s
      'time: ~3m20s; your maxWriteRate binds first (~1,000 items/s)',
      // One chunk's first GET + one GET of up to 8 MiB, over 200 s (issue 38, risk 8: estimate-kms.ts).
      'kms: under 1 request/s (~2 ranged GETs) if the objects are SSE-KMS without an S3 Bucket Key; with one, almost none',
      `cost: ~$0.13 DynamoDB writes ($0.625 per million write units) + ~$0.00 Lambda (346 GB-s at $0.0000133334); us-east-1 list prices, check yours`,
      // The cap binds every mode: the same time and cost (the modes' lanes would differ: see the --json test below).
      "per write mode, on the same rows (the request's first):",
      '  put:    ~200,000 write units, ~3m20s at ~1,000 items/s, ~$0.13',
      '  insert: ~200,000 write units, ~3m20s at ~1,000 items/s, ~$0.13',
      '  update: ~200,000 write units, ~3m20s at ~1,000 items/s, ~$0.13',
      '  delete: ~200,000 write units, ~3m20s at ~1,000 items/s, ~$0.13',
      '  sync:   ~200,000 write units, ~3m20s at ~1,000 items/s, ~$0.13',
      `  insert is priced ${PRICED_AS.insert}`,
      `  update is priced ${PRICED_AS.update}`,
      `  delete is priced ${PRICED_AS.delete}`,
      `  sync is priced ${PRICED_AS.sync}`,
      'point-in-time recovery: off',
      `warning: table "${table}" has point-in-time recovery off: a delete import refuses to start without ` +
        'allowWithoutBackup, and nothing a delete removes or a put or update replaces can be restored',
    ]);
  });

  it("prices each mode, the request's first: the same write units, and statement-batched insert and update at 0.5 of a lane's items/s", async () => {
    // One lane, 15,000 WCU: the lane binds. put 12,000 items/s; insert and update 0.5 of that (LANE_SHARE, from the
    // modes bench's CPU per item), 6,000; delete as put, 12,000. Every mode 200,000 items of 1 write unit (28-byte items,
    // no GSI). (15,000 WCU keeps AWS's default 80,000 for all provisioned tables in reach with the 40,000 above.)
    const dir = await mkdtemp(join(tmpdir(), 'estimate-'));
    await writeFile(join(dir, 'req.json'), JSON.stringify({ mode: 'insert' }));
    const table = await provisionedTable(15_000);
    const args = ['--table', table, '--types', 'year=N,count=N', '--concurrency', '1'];
    const { json } = await estimate([...args, '--request', join(dir, 'req.json')]);

    expect(json.mode).toBe('insert');
    expect(Object.keys(json.modes)).toEqual(['insert', 'put', 'update', 'delete', 'sync']);
    const modes = json.modes as Record<string, { writeUnits: number; itemsPerSecond: number; seconds: number }>;
    expect(Object.values(modes).map((m) => m.writeUnits)).toEqual([ROWS, ROWS, ROWS, ROWS, ROWS]);
    expect(modes.put).toMatchObject({ itemsPerSecond: 12_000, binding: 'lanes' });
    expect(modes.insert).toMatchObject({ itemsPerSecond: 6_000, binding: 'lanes' });
    expect(modes.update).toMatchObject({ itemsPerSecond: 6_000, binding: 'lanes' });
    expect(modes.delete.itemsPerSecond).toBeCloseTo(12_000, 9);
    // The top-level figures are the request's mode's.
    expect(json.itemsPerSecond.lanes).toBe(6_000);
    expect(json.importSeconds).toBeCloseTo(modes.insert.seconds, 9);
    // Provisioned: the capacity held for the time, so the slower modes cost more.
    expect(json.modes.insert.costUsd.dynamodb).toBeGreaterThan(json.modes.put.costUsd.dynamodb);
    // A new table has point-in-time recovery off: insert is not at risk, but a delete would be refused.
    expect(json.safety).toEqual({
      pointInTimeRecovery: 'DISABLED',
      warnings: [expect.stringContaining('a delete import refuses to start without allowWithoutBackup')],
    });
  });

  it("fails when the table's key is not a column of the file, naming it, as preflight would", async () => {
    const table = await createTable(['ngram', 'S']);
    await expect(estimate(['--table', table])).rejects.toThrow(
      'key attribute "ngram" (HASH, S) is not among the columns [id, year, count]',
    );
  });

  it('fails when the table does not exist, naming the fix', async () => {
    await expect(estimate(['--table', uniqueName('missing')])).rejects.toThrow(
      /table "missing-\w+" not found: create it first/,
    );
  });
});
