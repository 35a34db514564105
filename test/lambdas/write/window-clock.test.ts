import type { BatchWriteItemCommandInput, WriteRequest } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import { AdaptiveLimit } from '../../../lambdas/write/adaptive-limit.js';
import { keepLater } from '../../../lambdas/write/combine-rows.js';
import type { Item } from '../../../lambdas/write/item-sink.js';
import { RequestSlots } from '../../../lambdas/write/request-slots.js';
import { WindowedSender } from '../../../lambdas/write/windowed-sender.js';

const table = 'scripted';
const keys: KeyAttribute[] = [
  { name: 'pk', type: 'S', role: 'HASH' },
  { name: 'sk', type: 'N', role: 'RANGE' },
];
const itemOf = (pk: string, sk: number): Item => ({ pk: { S: pk }, sk: { N: String(sk) } });

describe('the windowed sender and its clock', () => {
  it('sends the last row once its key stops backing off between two readings of the clock, instead of stalling', async () => {
    // A clock that moves 1 ms every time it is read: the refused row's key backs off 1.5 ms from the reply's reading,
    // so it is still backing off at the pump's next reading and no longer at the one after. Read twice, the take
    // skipped it and the wait found nothing backing off, and waited for a reply with none in flight: forever.
    let clock = 0;
    const now = () => ++clock;
    const applied: Item[] = [];
    let calls = 0;
    const send = async (input: BatchWriteItemCommandInput) => {
      calls++;
      const sent = input.RequestItems![table];
      await new Promise((resolve) => setTimeout(resolve, 1));
      // The first request: the table takes k1 and refuses k0 (UnprocessedItems); later ones take everything.
      const left: WriteRequest[] = calls === 1 ? sent.filter((r) => r.PutRequest!.Item!.pk.S === 'k0') : [];
      for (const r of sent) if (!left.includes(r)) applied.push(r.PutRequest!.Item!);
      const unprocessed: Record<string, WriteRequest[]> = left.length ? { [table]: left } : {};
      return { UnprocessedItems: unprocessed, $metadata: {} };
    };
    const tally = { written: 0, replaced: 0 };
    const sender = new WindowedSender({
      table,
      send,
      toRequest: (item) => ({ PutRequest: { Item: item } }),
      combine: keepLater,
      keys,
      slots: new RequestSlots(new AdaptiveLimit(1)),
      // The back-off of a partly refused key: random() x the ladder's foot, 0.5 x 3 ms.
      retrying: { retry: { maxAttempts: 4, baseDelayMs: 3, maxDelayMs: 3 }, random: () => 0.5 },
      retries: { afterError: 0, forLeftovers: 0 },
      tally,
      now,
    });
    sender.add(itemOf('k0', 1), 'k0|1');
    sender.add(itemOf('k1', 1), 'k1|1');
    const flushed = sender.flush().then(() => 'flushed');
    const stalled = new Promise((resolve) => setTimeout(() => resolve('stalled'), 5_000));
    expect(await Promise.race([flushed, stalled])).toBe('flushed');
    expect(applied.map((item) => item.pk.S).sort()).toEqual(['k0', 'k1']);
    expect(tally.written).toBe(2);
    expect(calls).toBe(2);
  });
});
