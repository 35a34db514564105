import type { BatchWriteItemCommandInput, WriteRequest } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { BatchWriter, type SendBatchWrite } from '../../../lambdas/write/batch-writer.js';
import type { Item } from '../../../lambdas/write/item-sink.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';

const table = 'scripted';
const keys: KeyAttribute[] = [
  { name: 'pk', type: 'S', role: 'HASH' },
  { name: 'sk', type: 'N', role: 'RANGE' },
];
const itemOf = (pk: string, sk: number, v = 0): Item => ({ pk: { S: pk }, sk: { N: String(sk) }, v: { N: String(v) } });
const keyText = (item: Item) => `${item.pk.S}|${item.sk.N}`;
const retry = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 };
const throttle = () =>
  Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
    name: 'ProvisionedThroughputExceededException',
  });

/**
 * A scripted table: `refuse(item, call)` says whether the call refuses the item (into UnprocessedItems); the items
 * it takes are recorded in order, as the table applies them. Every call sees the request it was sent.
 */
function scriptedTable(refuse: (item: Item, call: number) => boolean) {
  const applied: Item[] = [];
  const requests: Item[][] = [];
  const send: SendBatchWrite = async (input: BatchWriteItemCommandInput) => {
    const sent = input.RequestItems![table];
    const items = sent.map((r) => r.PutRequest!.Item!);
    requests.push(items);
    await new Promise((resolve) => setTimeout(resolve, 1));
    const left: WriteRequest[] = [];
    items.forEach((item, i) => (refuse(item, requests.length) ? left.push(sent[i]) : applied.push(item)));
    const UnprocessedItems: Record<string, WriteRequest[]> = left.length ? { [table]: left } : {};
    return { UnprocessedItems, $metadata: {} };
  };
  return { send, applied, requests };
}

async function writeAll(writer: BatchWriter, items: readonly Item[]) {
  for (const item of items) await writer.add(item, keyText(item));
  await writer.flush();
}

/** A file sorted by partition key: `keys` keys of `rows` rows each. */
const sortedFile = (partitionKeys: number, rows: number) =>
  Array.from({ length: partitionKeys * rows }, (_, i) => itemOf(`k${Math.floor(i / rows)}`, i % rows));

describe('BatchWriter with the table keys (the windowed path)', () => {
  it('spreads each request of a key-sorted file over 25 partition keys', async () => {
    const { send, requests } = scriptedTable(() => false);
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 1 });
    await writeAll(writer, sortedFile(40, 20)); // 800 rows: one window
    // The first request went with the first 25 rows read (below); every later one spreads over 25 keys.
    expect(new Set(requests[0].map(keyText))).toEqual(new Set(sortedFile(40, 20).slice(0, 25).map(keyText)));
    for (const request of requests.slice(1, -1)) expect(new Set(request.map((item) => item.pk.S)).size).toBe(25);
    expect(writer.written).toBe(800);
  });

  it('sends its first request as soon as it holds 25 rows: the first write does not wait for the window', async () => {
    const { send, requests } = scriptedTable(() => false);
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 1 });
    const file = sortedFile(40, 20);
    for (const item of file.slice(0, 24)) expect(writer.add(item, keyText(item))).toBeUndefined();
    expect(requests).toHaveLength(0);
    await writer.add(file[24], keyText(file[24])); // the 25th row: a request's worth, sent at once
    expect(requests.map((request) => new Set(request.map(keyText)))).toEqual([new Set(file.slice(0, 25).map(keyText))]);
    // Then the lane reads its window full again before the next request (MIN_LOOK_AHEAD rows, 800 here).
    for (const item of file.slice(25, 400)) await writer.add(item, keyText(item));
    expect(requests).toHaveLength(1);
    await writer.flush();
    expect(writer.written).toBe(800 / 2);
  });

  it('once it has read all it will, sends first the keys holding the most rows, so they finish together', async () => {
    const { send, requests } = scriptedTable(() => false);
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 1 });
    // 20 keys of one row, then k20 with 4: fewer than a request's 25 rows, so nothing goes before the flush.
    const file = [...sortedFile(20, 1), ...Array.from({ length: 4 }, (_, sk) => itemOf('k20', sk))];
    await writeAll(writer, file);
    expect(requests).toHaveLength(1);
    // k20 first (read last, but holding the most rows), then a row of each key in turn, then k20's others.
    expect(requests[0].map((item) => item.pk.S)).toEqual([
      'k20',
      ...Array.from({ length: 20 }, (_, k) => `k${k}`),
      'k20',
      'k20',
      'k20',
    ]);
    expect(writer.written).toBe(24);
  });

  it('sends other keys while a refused key backs off, and writes every row', async () => {
    // The table refuses every row of k0 on the first 5 calls: the rows of the other keys go on meanwhile.
    const { send, applied, requests } = scriptedTable((item, call) => item.pk.S === 'k0' && call <= 5);
    // random() = 1: each back-off is its ceiling, 50 ms, longer than a reply takes.
    const slow = { maxAttempts: 4, baseDelayMs: 50, maxDelayMs: 100 };
    const writer = new BatchWriter({ table, send, keys, retry: slow, random: () => 1, maxInFlight: 1 });
    const file = sortedFile(40, 20);
    await writeAll(writer, file);
    expect(writer.written).toBe(800);
    expect(applied.map(keyText).sort()).toEqual(file.map(keyText).sort());
    // The refused call's slot was not spent waiting on k0: the next calls carry 25 rows of other keys.
    expect(requests[1].filter((item) => item.pk.S === 'k0')).toHaveLength(0);
    expect(requests[1]).toHaveLength(25);
  });

  it('keeps the last row of a key repeated while an earlier row is refused', async () => {
    let refusedOnce = false;
    const { send, applied } = scriptedTable((item) => {
      if (item.pk.S !== 'a' || refusedOnce) return false;
      return (refusedOnce = true);
    });
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 1 });
    const file = [itemOf('a', 0, 1), ...sortedFile(30, 1), itemOf('a', 0, 2)];
    await writeAll(writer, file);
    const a = applied.filter((item) => item.pk.S === 'a').map((item) => item.v.N);
    expect(a.at(-1)).toBe('2');
    expect(writer.written + writer.replaced).toBe(file.length);
  });

  it('does not cut the requests in flight for replies that were only partly refused', async () => {
    // Every call refuses one row of 25 (one busy partition): the table takes writes, so the limit stays.
    const { send } = scriptedTable((item, call) => item.sk.N === '0' && item.pk.S === `k${call % 40}`);
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 4 });
    await writeAll(writer, sortedFile(40, 20));
    expect(writer.inFlightLimit).toBe(4);
    expect(writer.written).toBe(800);
  });

  it('cuts the requests in flight when whole requests are refused', async () => {
    let calls = 0;
    const inner = scriptedTable(() => false);
    // The limit as each request is sent.
    const limits: number[] = [];
    const send: SendBatchWrite = async (input) => {
      limits.push(writer.inFlightLimit);
      if (++calls <= 24) throw throttle();
      return inner.send(input);
    };
    const writer: BatchWriter = new BatchWriter({
      table,
      send,
      keys,
      retry: { ...retry, maxAttempts: 50 },
      maxInFlight: 8,
    });
    await writeAll(writer, sortedFile(40, 20));
    expect(Math.min(...limits)).toBeLessThanOrEqual(4);
    expect(writer.written).toBe(800);
  });

  it('fails with BatchWriteFailedError once a key is refused maxAttempts times in a row', async () => {
    const { send } = scriptedTable((item) => item.pk.S === 'k1');
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 1 });
    const failure = await writeAll(writer, sortedFile(3, 2)).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.name).toBe('BatchWriteFailedError');
    expect(failure?.message).toBe(`2 items not written to ${table} after 4 attempts (still unprocessed)`);
  });

  it('fails at once on an error not worth retrying', async () => {
    const send: SendBatchWrite = async () => {
      throw Object.assign(new Error('One or more parameter values were invalid'), { name: 'ValidationException' });
    };
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 1 });
    await expect(writeAll(writer, sortedFile(2, 2))).rejects.toMatchObject({
      name: 'BatchWriteFailedError',
      message: expect.stringContaining(`BatchWriteItem on ${table} failed`),
    });
  });
});
