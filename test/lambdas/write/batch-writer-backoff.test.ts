import { BatchWriteItemCommand, DeleteTableCommand, DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { longestBackoffMs } from '../../../lambdas/retry/batch-retry.js';
import { BatchWriter, type SendBatchWrite } from '../../../lambdas/write/batch-writer.js';
import { ensureTable } from '../../../cli/local-run/local-stack.js';

/** Adaptive back-off: the writer's in-flight limit halves on throttles and grows back slowly. */
const client = new DynamoDBClient({});
const table = `backoff-${process.pid}-${Date.now()}`;
afterAll(async () => {
  await client.send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
  client.destroy();
});

const throttle = () =>
  Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
    name: 'ProvisionedThroughputExceededException',
  });

describe('BatchWriter adaptive back-off', () => {
  it('cuts requests in flight while throttled, recovers after clean requests, and loses nothing', async () => {
    await ensureTable(client, table, { name: 'pk', type: 'S' });
    // The real send to the local engine, wrapped: calls 20-99 are throttled, every other call goes through. 80, not
    // fewer: a throttle replies at once while up to 15 clean requests are still at the server, and their replies
    // land among the throttles wherever the machine's speed puts them. The limit halves on a round of 16 replies
    // more than 3/4 pushed back. 80 throttles and at most 15 clean replies among them fill 5 whole rounds of 16
    // (95 replies), and 15 clean ones over 5 rounds leave one round with at most 3: 13 throttles of 16, over 12.
    let calls = 0;
    let inFlight = 0;
    const observedMax: number[] = [];
    // The limit as each request is sent: read at every call, not between adds, so a slow machine (where a drop
    // and the climb back can both happen while one add waits for a free slot) still shows the drop.
    const limits: number[] = [];
    const send: SendBatchWrite = async (input) => {
      const n = calls++;
      inFlight++;
      observedMax.push(inFlight);
      limits.push(writer.inFlightLimit);
      try {
        if (n >= 20 && n < 100) throw throttle();
        return await client.send(new BatchWriteItemCommand(input));
      } finally {
        inFlight--;
      }
    };
    const writer: BatchWriter = new BatchWriter({
      table,
      send,
      maxInFlight: 16,
      retry: { maxAttempts: 50, baseDelayMs: 1, maxDelayMs: 2 },
    });
    for (let i = 0; i < 12_000; i++) {
      await writer.add({ pk: { S: `k${i}` }, n: { N: String(i) } }, `k${i}`);
    }
    await writer.flush();

    // 80 throttled calls in rounds of at most 16: the limit went down to at most half...
    expect(Math.min(...limits)).toBeLessThanOrEqual(8);
    // ...never below one, and came back up once requests went through again (12,000 items = 480 requests).
    expect(Math.min(...limits)).toBeGreaterThanOrEqual(1);
    expect(limits.at(-1)).toBeGreaterThan(Math.min(...limits));
    expect(Math.max(...observedMax)).toBeLessThanOrEqual(16);
    let count = 0;
    for await (const page of paginateScan({ client }, { TableName: table })) count += page.Items?.length ?? 0;
    expect(count).toBe(12_000);
    expect(writer.written).toBe(12_000);
  });
});

describe('BatchWriter retry budget', () => {
  it('spends attempts only on replies that wrote nothing: a batch that keeps progressing completes', async () => {
    const table2 = `${table}-budget`;
    await ensureTable(client, table2, { name: 'pk', type: 'S' });
    try {
      // The real send, wrapped: each call writes only the first item and returns the rest as unprocessed.
      const oneAtATime: SendBatchWrite = async (input) => {
        const [first, ...rest] = input.RequestItems![table2];
        await client.send(new BatchWriteItemCommand({ RequestItems: { [table2]: [first] } }));
        return { UnprocessedItems: rest.length ? { [table2]: rest } : {}, $metadata: {} };
      };
      const writer = new BatchWriter({
        table: table2,
        send: oneAtATime,
        retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
      });
      for (let i = 0; i < 25; i++) await writer.add({ pk: { S: `k${i}` } }, `k${i}`);
      await writer.flush(); // 25 replies, 24 of them partial: 2 attempts would fail if progress counted
      expect(writer.written).toBe(25);

      const nothing: SendBatchWrite = async (input) => ({ UnprocessedItems: input.RequestItems, $metadata: {} });
      const stalled = new BatchWriter({
        table: table2,
        send: nothing,
        retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
      });
      await stalled.add({ pk: { S: 'x' } }, 'x');
      await expect(stalled.flush()).rejects.toMatchObject({
        name: 'BatchWriteFailedError',
        message: expect.stringContaining('after 2 attempts'),
      });
    } finally {
      await client.send(new DeleteTableCommand({ TableName: table2 }));
    }
  });
});

describe('BatchWriter longest back-off', () => {
  it('sleeps at most longestBackoffMs for one batch, the figure the stop margin is built on', async () => {
    const table3 = `${table}-ladder`;
    await ensureTable(client, table3, { name: 'pk', type: 'S' });
    try {
      // The worst order for one 25-item batch: 11 replies that write nothing (throttles; the 12th would fail
      // it), then 24 replies that each write one item, then the last item. With random() = 1 every wait is
      // its ceiling, so the writer sleeps exactly the bound.
      const retry = { maxAttempts: 12, baseDelayMs: 50, maxDelayMs: 5000 };
      let calls = 0;
      const worst: SendBatchWrite = async (input) => {
        if (calls++ < 11) throw throttle();
        const [first, ...rest] = input.RequestItems![table3];
        await client.send(new BatchWriteItemCommand({ RequestItems: { [table3]: [first] } }));
        return { UnprocessedItems: rest.length ? { [table3]: rest } : {}, $metadata: {} };
      };
      const slept: number[] = [];
      const sleep = async (ms: number) => void slept.push(ms);
      const writer = new BatchWriter({ table: table3, send: worst, retry, sleep, random: () => 1 });
      for (let i = 0; i < 25; i++) await writer.add({ pk: { S: `k${i}` } }, `k${i}`);
      await writer.flush();

      expect(writer.written).toBe(25);
      expect(calls).toBe(11 + 25);
      expect(slept.reduce((a, b) => a + b, 0)).toBe(longestBackoffMs(retry)); // 26,350 + 24 x 50 = 27,550
    } finally {
      await client.send(new DeleteTableCommand({ TableName: table3 }));
    }
  });
});
