import {
  BatchWriteItemCommand,
  type BatchWriteItemCommandInput,
  type BatchWriteItemCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_WRITE_RETRY, type RetryPolicy } from '../../../lambdas/retry/backoff.js';
import { longestBackoffMs } from '../../../lambdas/retry/batch-retry.js';
import { BatchWriter, type SendBatchWrite } from '../../../lambdas/write/batch-writer.js';
import type { Item } from '../../../lambdas/write/item-sink.js';
import { seededRandom } from '../../fixtures/random.js';
import { PATIENT, noSleep, pkTables } from './pk-tables.js';

const { client, createTable, scanTable } = pkTables('batch-writer');
/** The real BatchWriteItem, as the import handler passes it. */
const realSend: SendBatchWrite = (input) => client.send(new BatchWriteItemCommand(input));

const itemOf = (pk: string, version: number): Item => ({
  pk: { S: pk },
  version: { N: String(version) },
  note: { S: `é ${pk}` },
});

/** Adds `puts` in order, as the chunk importer does, then flushes. */
async function writeAll(writer: BatchWriter, puts: readonly Item[]): Promise<void> {
  for (const item of puts) await writer.add(item, item.pk.S!);
  await writer.flush();
}

/** The last put of each key: what the table must hold. */
const lastOfEachKey = (puts: readonly Item[]) => new Map(puts.map((item) => [item.pk.S!, item]));

const throttle = () =>
  Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
    name: 'ProvisionedThroughputExceededException',
  });

describe('BatchWriter against the local engine', () => {
  it('writes 1,000 items, each landing exactly as given', async () => {
    const table = await createTable();
    const puts = Array.from({ length: 1000 }, (_, i) => itemOf(`k${i}`, i));
    const writer = new BatchWriter({ table, send: realSend });
    await writeAll(writer, puts);
    expect(writer.written).toBe(1000);
    expect(writer.replaced).toBe(0);
    expect(await scanTable(table)).toEqual(lastOfEachKey(puts));
  });

  it('keeps the last of duplicate keys inside one batch and counts the ones replaced', async () => {
    // 10 keys, then k0 and k1 again: 12 puts, under 25, so one request. DynamoDB refuses a request
    // holding a key twice; the writer must send 10 items.
    const table = await createTable();
    const puts = [...Array.from({ length: 10 }, (_, i) => itemOf(`k${i}`, 1)), itemOf('k0', 2), itemOf('k1', 2)];
    const send = vi.fn(realSend);
    const writer = new BatchWriter({ table, send });
    await writeAll(writer, puts);
    expect(send).toHaveBeenCalledTimes(1);
    expect(writer.replaced).toBe(2);
    expect(writer.written).toBe(10);
    expect(await scanTable(table)).toEqual(lastOfEachKey(puts));
  });

  it('leaves the last version of each key when it repeats across many batches in flight at once', async () => {
    // 2,000 puts: about 1 in 10 goes to one of 10 hot keys with a rising version, the rest to unique keys,
    // so some batches share a hot key (and must go in order) and others may overlap. Each request is
    // delayed at random, so requests finish out of order unless the writer orders them.
    const table = await createTable();
    const pick = seededRandom(7);
    const puts = Array.from({ length: 2000 }, (_, i) => itemOf(pick() < 0.1 ? `hot${i % 10}` : `cold${i}`, i));
    const delay = seededRandom(8);
    let inFlight = 0;
    let mostInFlight = 0;
    const send: SendBatchWrite = async (input) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, delay() * 20));
        return await realSend(input);
      } finally {
        inFlight--;
      }
    };
    const writer = new BatchWriter({ table, send, maxInFlight: 16 });
    await writeAll(writer, puts);
    const expected = lastOfEachKey(puts);
    expect(await scanTable(table)).toEqual(expected);
    expect(writer.written + writer.replaced).toBe(2000); // every put either landed or was replaced in its batch
    expect(writer.written).toBeGreaterThanOrEqual(expected.size);
    expect(mostInFlight).toBeGreaterThan(1);
    expect(mostInFlight).toBeLessThanOrEqual(16);
  });

  it('ends with the same table when 30% of requests throttle and 30% come back partly unprocessed', async () => {
    const table = await createTable();
    const pick = seededRandom(2024);
    const puts = Array.from({ length: 1000 }, (_, i) => itemOf(pick() < 0.1 ? `hot${i % 10}` : `k${i}`, i));
    const random = seededRandom(2025);
    const faults = { throttled: 0, partial: 0 };
    // Faults the real server does not produce on demand: a throttle, or only part of the batch written
    // (the rest really is not sent, and comes back as UnprocessedItems as DynamoDB would return it).
    const send: SendBatchWrite = async (input: BatchWriteItemCommandInput): Promise<BatchWriteItemCommandOutput> => {
      const roll = random();
      if (roll < 0.3) {
        faults.throttled++;
        throw throttle();
      }
      if (roll < 0.6) {
        faults.partial++;
        const requests = input.RequestItems![table];
        const done = Math.floor(random() * requests.length); // 0 to all but one
        if (done > 0) await realSend({ RequestItems: { [table]: requests.slice(0, done) } });
        return { UnprocessedItems: { [table]: requests.slice(done) }, $metadata: {} };
      }
      return realSend(input);
    };
    const onThrottle = vi.fn();
    const writer = new BatchWriter({ table, send, retry: PATIENT, sleep: noSleep, onThrottle });
    await writeAll(writer, puts);
    expect(await scanTable(table)).toEqual(lastOfEachKey(puts));
    expect(writer.written + writer.replaced).toBe(1000);
    expect(faults.throttled).toBeGreaterThan(10);
    expect(faults.partial).toBeGreaterThan(10);
    expect(onThrottle).toHaveBeenCalledTimes(faults.throttled + faults.partial);
    // What the import's ThrottledRetries and UnprocessedRetries metrics report: each pushed-back reply sent again once.
    expect(writer.throttledRetries).toBe(faults.throttled);
    expect(writer.unprocessedRetries).toBe(faults.partial);
  });

  it('fails at once with BatchWriteFailedError on an error not worth retrying (ValidationException)', async () => {
    // An item without the table's key: the engine itself refuses the request, as DynamoDB does.
    const table = await createTable();
    const send = vi.fn(realSend);
    const sleep = vi.fn(noSleep);
    const writer = new BatchWriter({ table, send, retry: PATIENT, sleep });
    await writer.add({ other: { S: 'x' } }, 'x');
    const failure = await writer.flush().then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.name).toBe('BatchWriteFailedError');
    expect(failure?.message).toContain(`BatchWriteItem on ${table} failed`);
    expect((failure?.cause as Error).name).toBe('ValidationException');
    expect(send).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });
});

describe('BatchWriter retry budget', () => {
  const table = 'never-written';
  const items = Array.from({ length: 30 }, (_, i) => itemOf(`k${i}`, i));
  // random() = 1 makes each full-jitter wait its ceiling: min(20, 10 * 2^attempt) = 10, 20, 20.
  const retry: RetryPolicy = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 20 };

  it('fails when a request keeps throttling, after maxAttempts tries with capped backoff', async () => {
    const send = vi.fn<SendBatchWrite>(async () => {
      throw throttle();
    });
    const sleep = vi.fn(noSleep);
    const writer = new BatchWriter({ table, send, retry, sleep, random: () => 1, maxInFlight: 1 });
    for (const item of items.slice(0, 3)) await writer.add(item, item.pk.S!);
    const failure = await writer.flush().then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.name).toBe('BatchWriteFailedError');
    expect(failure?.message).toBe(
      `3 items not written to ${table} after 4 attempts (last error: ProvisionedThroughputExceededException)`,
    );
    expect(send).toHaveBeenCalledTimes(4);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([10, 20, 20]);
    expect(writer.written).toBe(0);
    // 4 attempts are 3 retries; the last reply fails the batch instead.
    expect([writer.throttledRetries, writer.unprocessedRetries]).toEqual([3, 0]);
  });

  it('fails when items stay unprocessed, and refuses further items once a batch has failed', async () => {
    const send = vi.fn<SendBatchWrite>(async (input) => ({ UnprocessedItems: input.RequestItems, $metadata: {} }));
    const writer = new BatchWriter({ table, send, retry, sleep: noSleep, maxInFlight: 1 });
    for (const item of items.slice(0, 25)) await writer.add(item, item.pk.S!); // the 25th sends a batch
    const failure = await writer.flush().then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.name).toBe('BatchWriteFailedError');
    expect(failure?.message).toBe(`25 items not written to ${table} after 4 attempts (still unprocessed)`);
    expect([writer.throttledRetries, writer.unprocessedRetries]).toEqual([0, 3]);
    await expect(writer.add(items[25], 'k25')).rejects.toBe(failure);
  });
});

describe('BatchWriter retry budget under scattered throttles', () => {
  /**
   * The real send behind a script: `throttlesPerPhase` throttles, then a reply that writes the first half of the
   * batch (rounded up) and leaves the rest unprocessed, again and again: 25 -> 12 -> 6 -> 3 -> 1 -> 0 items left.
   */
  function throttlesThenHalf(throttlesPerPhase: number) {
    let throttlesLeft = throttlesPerPhase;
    return vi.fn<SendBatchWrite>(async (input) => {
      if (throttlesLeft-- > 0) throw throttle();
      throttlesLeft = throttlesPerPhase;
      const [table, requests] = Object.entries(input.RequestItems!)[0];
      const taken = Math.ceil(requests.length / 2);
      await realSend({ RequestItems: { [table]: requests.slice(0, taken) } });
      const rest = requests.slice(taken);
      return { UnprocessedItems: rest.length ? { [table]: rest } : {}, $metadata: {} };
    });
  }
  const sleptOf = (sleep: ReturnType<typeof vi.fn>) => sleep.mock.calls.map(([ms]) => ms as number);

  it('writes a batch that keeps progressing, however many throttles it meets between its partial replies', async () => {
    // The default ladder (12 attempts, 50 ms doubling, 5 s cap) and 4 throttles before each of the 5 replies that
    // write: 20 throttles in all, never more than 4 in a row. Counted over the batch's life, the 12th of them
    // (in the third run) failed it: "items not written ... after 14 attempts".
    const table = await createTable();
    const send = throttlesThenHalf(4);
    const sleep = vi.fn(noSleep);
    const writer = new BatchWriter({ table, send, retry: DEFAULT_WRITE_RETRY, sleep, random: () => 1 });
    const puts = Array.from({ length: 25 }, (_, i) => itemOf(`k${i}`, i));
    await writeAll(writer, puts);

    expect(writer.written).toBe(25);
    expect(await scanTable(table)).toEqual(lastOfEachKey(puts));
    expect(send).toHaveBeenCalledTimes(5 * 5); // 5 runs of 4 throttles and 1 reply that writes
    // random() = 1: every wait is its ceiling. Each run climbs from the ladder's foot: 50, 100, 200, 400; a
    // partial reply waits the base 50; the last reply writes everything and waits for nothing.
    const run = [50, 100, 200, 400];
    expect(sleptOf(sleep)).toEqual([...[1, 2, 3, 4].flatMap(() => [...run, 50]), ...run]);
    expect([writer.throttledRetries, writer.unprocessedRetries]).toEqual([20, 4]);
  });

  it('still fails a batch whose stalled waits would pass one ladder, so longestBackoffMs stays a bound', async () => {
    // 11 throttles (waits 50 + 100 + ... + 5,000 = 26,350 ms, the whole ladder), a reply that writes 13 items, then
    // a throttle: its wait of 50 ms would take the stalled waits past the ladder, so the batch fails there.
    const table = await createTable();
    let calls = 0;
    const send = vi.fn<SendBatchWrite>(async (input) => {
      calls++;
      if (calls !== 12) throw throttle();
      const [name, requests] = Object.entries(input.RequestItems!)[0];
      await realSend({ RequestItems: { [name]: requests.slice(0, 13) } });
      return { UnprocessedItems: { [name]: requests.slice(13) }, $metadata: {} };
    });
    const sleep = vi.fn(noSleep);
    const writer = new BatchWriter({ table, send, retry: DEFAULT_WRITE_RETRY, sleep, random: () => 1 });
    const puts = Array.from({ length: 25 }, (_, i) => itemOf(`k${i}`, i));
    const failure = await writeAll(writer, puts).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toBe(
      `12 items not written to ${table} after 13 attempts (last error: ProvisionedThroughputExceededException)`,
    );
    expect(writer.written).toBe(13);
    const slept = sleptOf(sleep);
    expect(slept.reduce((a, b) => a + b, 0)).toBe(26_350 + 50);
    expect(slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(longestBackoffMs(DEFAULT_WRITE_RETRY));
  });
});

describe('BatchWriter slots', () => {
  const table = 'slots';
  const items = Array.from({ length: 50 }, (_, i) => itemOf(`k${i}`, i));
  /** A send whose replies the test releases one by one. */
  function heldSend() {
    const replies: (() => void)[] = [];
    const send = vi.fn<SendBatchWrite>(
      () =>
        new Promise<BatchWriteItemCommandOutput>((resolve) =>
          replies.push(() => resolve({ UnprocessedItems: {}, $metadata: { httpStatusCode: 200 } })),
        ),
    );
    return { send, release: () => replies.shift()!() };
  }
  const settled = () => new Promise((resolve) => setTimeout(resolve, 10));
  const addAll = async (writer: BatchWriter, from: number, to: number) => {
    for (const item of items.slice(from, to)) await writer.add(item, item.pk.S!);
  };

  it('holds a full batch while the requests in flight are at the limit, and sends it when one finishes', async () => {
    const { send, release } = heldSend();
    const writer = new BatchWriter({ table, send, maxInFlight: 1 });
    await addAll(writer, 0, 25); // the first batch goes out
    const second = addAll(writer, 25, 50); // its 25th item waits for the slot
    await settled();
    expect(send).toHaveBeenCalledTimes(1);
    release();
    await second;
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1][0].RequestItems?.[table].map((r) => r.PutRequest?.Item?.pk.S)).toEqual(
      items.slice(25).map((item) => item.pk.S),
    );
    release();
    await writer.flush();
    expect(writer.written).toBe(50);
  });

  it('sends a full batch without waiting for a slot once the import is stopping', async () => {
    const { send, release } = heldSend();
    const stopping = new AbortController();
    const writer = new BatchWriter({ table, send, maxInFlight: 1, stopping: stopping.signal });
    await addAll(writer, 0, 25);
    const second = addAll(writer, 25, 50);
    await settled();
    expect(send).toHaveBeenCalledTimes(1);
    stopping.abort(); // the first request is still in flight
    await second;
    expect(send).toHaveBeenCalledTimes(2);
    release();
    release();
    await writer.flush();
    expect(writer.written).toBe(50);
  });
});
