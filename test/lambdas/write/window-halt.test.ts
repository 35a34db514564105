import type { BatchWriteItemCommandInput, WriteRequest } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { BatchWriter, type SendBatchWrite } from '../../../lambdas/write/batch-writer.js';
import type { Item, RowMark } from '../../../lambdas/write/item-sink.js';
import { MAX_SPAN_BYTES } from '../../../lambdas/write/look-ahead.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';

const table = 'scripted';
const keys: KeyAttribute[] = [
  { name: 'pk', type: 'S', role: 'HASH' },
  { name: 'sk', type: 'N', role: 'RANGE' },
];
const retry = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 };
const itemOf = (i: number): Item => ({ pk: { S: `k${i % 50}` }, sk: { N: String(i) } });
/** Row i's place: 10 bytes a record from offset 0, line i + 2 (a header first), no rows rejected. */
const markOf = (i: number, bytes = 10): RowMark => ({ offset: i * 10, line: i + 2, rows: i, rejected: 0, bytes });

/** A table that takes every row; `onCall` runs as each request arrives (the n-th call, from 1). */
function recordingTable(onCall: (call: number) => void = () => {}) {
  const applied: number[] = [];
  let calls = 0;
  const send: SendBatchWrite = async (input: BatchWriteItemCommandInput) => {
    onCall(++calls);
    await new Promise((resolve) => setTimeout(resolve, 1));
    const sent: WriteRequest[] = input.RequestItems![table];
    for (const request of sent) applied.push(Number(request.PutRequest!.Item!.sk.N));
    return { UnprocessedItems: {}, $metadata: {} };
  };
  return { send, applied, calls: () => calls };
}

describe('BatchWriter halting (a paused lane, or one at its deadline)', () => {
  it('stops sending at once and resumes from its first unwritten row, counting only the rows before it', async () => {
    let halted = false;
    const { send, applied, calls } = recordingTable((call) => (halted ||= call === 2));
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 1, halt: () => halted });
    for (let i = 0; i < 2_000; i++) await writer.add(itemOf(i), String(i), markOf(i));
    await writer.flush();
    // Two requests went out (the second in flight when the lane halted): 50 rows of the 2,000 held.
    expect(calls()).toBe(2);
    expect(applied).toHaveLength(50);
    const first = Math.min(...Array.from({ length: 2_000 }, (_, i) => i).filter((i) => !applied.includes(i)));
    expect(writer.heldFrom).toEqual(markOf(first));
    // Only the rows before the first unwritten one count: the next invocation writes (and counts) the rest.
    expect(writer.written).toBe(applied.filter((i) => i < first).length);
    expect(writer.written).toBe(first);
  });

  it('past its deadline drains the oldest rows first, so what it writes before it halts moves its checkpoint on', async () => {
    const sent: number[][] = [];
    const { send } = recordingTable();
    const recording: SendBatchWrite = (input) => {
      sent.push(input.RequestItems![table].map((request) => Number(request.PutRequest!.Item!.sk.N)));
      return send(input);
    };
    const deadline = new AbortController();
    const writer = new BatchWriter({ table, send: recording, keys, retry, maxInFlight: 1, stopping: deadline.signal });
    for (let i = 0; i < 600; i++) await writer.add(itemOf(i), String(i), markOf(i)); // under the window: none sent
    deadline.abort();
    await writer.flush();
    expect(sent[0]).toEqual(Array.from({ length: 25 }, (_, i) => i)); // rows 0-24, not one row of each of 25 keys
    expect(writer.written).toBe(600); // the drain had time for every row
  });

  it('sends every row when the rows come without their place in the file (it could not resume from one)', async () => {
    const { send, applied } = recordingTable();
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 1, halt: () => true });
    for (let i = 0; i < 900; i++) await writer.add(itemOf(i), String(i));
    await writer.flush();
    expect(applied).toHaveLength(900);
    expect(writer.heldFrom).toBeUndefined();
  });

  it('leaves heldFrom unset when every row was written before the lane halted', async () => {
    let halted = false;
    const { send, applied } = recordingTable();
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 2, halt: () => halted });
    for (let i = 0; i < 100; i++) await writer.add(itemOf(i), String(i), markOf(i));
    await writer.flush();
    halted = true;
    await writer.flush();
    expect(applied).toHaveLength(100);
    expect(writer.heldFrom).toBeUndefined();
    expect(writer.written).toBe(100);
  });

  it('bounds its read-ahead in bytes: large rows make the caller wait long before the row bound', async () => {
    const { send } = recordingTable();
    const writer = new BatchWriter({ table, send, keys, retry, maxInFlight: 1 });
    const bytes = 1024 * 1024; // 1 MiB records: the 16 MiB span holds 16 of them, far below 800 rows
    let firstWait = -1;
    for (let i = 0; i < 40; i++) {
      const queued = writer.add(itemOf(i), String(i), markOf(i, bytes));
      if (queued && firstWait < 0) firstWait = i;
      await queued;
    }
    await writer.flush();
    expect(firstWait).toBe(MAX_SPAN_BYTES / bytes - 1);
    expect(writer.written).toBe(40);
  });
});
