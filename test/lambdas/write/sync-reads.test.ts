import type { BatchGetItemCommandInput, BatchGetItemCommandOutput } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { readItems } from '../../../lambdas/write/sync-reads.js';

const key = (id: string) => ({ id: { S: id } });
const KEYS = ['a', 'b', 'c', 'd'].map(key);
const RETRY = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 4 };

/** A scripted BatchGetItem: each call's reply in turn, every request kept for the test to check. */
function scripted(replies: ((input: BatchGetItemCommandInput) => BatchGetItemCommandOutput)[]) {
  const requests: BatchGetItemCommandInput[] = [];
  const send = async (input: BatchGetItemCommandInput) => {
    requests.push(structuredClone(input));
    return replies[requests.length - 1](input);
  };
  return { send, requests };
}

const options = (send: (input: BatchGetItemCommandInput) => Promise<BatchGetItemCommandOutput>) => ({
  table: 't',
  send,
  consistentRead: false,
  retrying: { retry: RETRY, sleep: async () => {}, random: () => 0 },
  counts: { afterError: 0, forLeftovers: 0 },
});

describe('readItems: sync reads through the one retry loop', () => {
  it('sends the keys still unprocessed again, and returns every item found across the replies', async () => {
    const { send, requests } = scripted([
      () => ({ Responses: { t: [key('a')] }, UnprocessedKeys: { t: { Keys: [key('c'), key('d')] } }, $metadata: {} }),
      () => ({ Responses: { t: [key('d')] }, $metadata: {} }),
    ]);
    const opts = options(send);
    const found = await readItems(KEYS, opts);
    expect(found).toEqual([key('a'), key('d')]); // b and c hold no item
    expect(requests).toEqual([
      { RequestItems: { t: { Keys: KEYS, ConsistentRead: false } } },
      { RequestItems: { t: { Keys: [key('c'), key('d')], ConsistentRead: false } } },
    ]);
    expect(opts.counts).toEqual({ afterError: 0, forLeftovers: 1 });
  });

  it('retries a throttle, as writes are retried', async () => {
    const throttle = Object.assign(new Error('slow down'), {
      name: 'ProvisionedThroughputExceededException',
      $metadata: { httpStatusCode: 400 },
    });
    const { send, requests } = scripted([
      () => {
        throw throttle;
      },
      () => ({ Responses: { t: KEYS }, $metadata: {} }),
    ]);
    const opts = options(send);
    expect(await readItems(KEYS, opts)).toEqual(KEYS);
    expect(requests).toHaveLength(2);
    expect(opts.counts.afterError).toBe(1);
  });

  it('fails with BatchReadFailedError on an error not worth retrying, naming the table', async () => {
    const invalid = Object.assign(new Error('bad key'), {
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    });
    const { send } = scripted([
      () => {
        throw invalid;
      },
    ]);
    await expect(readItems(KEYS, options(send))).rejects.toMatchObject({
      name: 'BatchReadFailedError',
      message: 'BatchGetItem on t failed: bad key',
    });
  });
});
