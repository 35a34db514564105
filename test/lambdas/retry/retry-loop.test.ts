import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from '../../../lambdas/write/adaptive-limit.js';
import { sendWithRetries, type AttemptReply, type RetriedWrite } from '../../../lambdas/retry/retry-loop.js';

const throttle = () => Object.assign(new Error('slow down'), { name: 'ThrottlingException', $metadata: {} });
const retry = { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 40 };

/** A write whose replies a test scripts: an error to throw, or what the reply left (`left` items, pushed back or not). */
function scripted(replies: (Error | { left: number; pushedBack: boolean })[], items = 5) {
  let pending = items;
  const sent: number[] = [];
  const write: RetriedWrite = {
    pending: () => pending,
    async attempt(): Promise<AttemptReply> {
      sent.push(pending);
      const reply = replies.shift() ?? { left: 0, pushedBack: false };
      if (reply instanceof Error) throw reply;
      const progressed = reply.left < pending;
      pending = reply.left;
      return { pushedBack: reply.pushedBack, progressed };
    },
    failed: (error) => new Error(`failed: ${(error as Error).name}`),
    exhausted: (attempts, lastError) => new Error(`exhausted after ${attempts} (${(lastError as Error)?.name})`),
  };
  return { write, sent };
}

function context() {
  const waits: number[] = [];
  const told: number[] = [];
  const counts = { afterError: 0, forLeftovers: 0 };
  const limit = new AdaptiveLimit(4);
  const loop = {
    retry,
    limit,
    random: () => 1, // each wait is its ceiling: 10, 20, 40
    sleep: async (ms: number) => void waits.push(ms),
    beforeSend: async (items: number) => void told.push(items),
  };
  return { loop, waits, told, counts };
}

describe('sendWithRetries: the decision apart from the call', () => {
  it('fails after maxAttempts replies in a row that settled nothing, with the last error', async () => {
    const { write, sent } = scripted([throttle(), throttle(), throttle()]);
    const { loop, waits, counts } = context();
    await expect(sendWithRetries(write, loop, counts)).rejects.toThrow('exhausted after 3 (ThrottlingException)');
    expect(sent).toEqual([5, 5, 5]);
    expect(waits).toEqual([10, 20]); // the third stall fails instead of waiting
    expect(counts).toEqual({ afterError: 2, forLeftovers: 0 });
  });

  it('starts the ladder again after a reply that settled part, so a progressing write is not failed', async () => {
    // A stall, a partial reply, a stall, ...: 6 replies pushed back, twice maxAttempts, never 2 stalls in a row. (The
    // stalls' ceilings, 3 x 10, stay within one ladder, 10 + 20: the bound that keeps longestBackoffMs true.)
    const partial = (left: number) => ({ left, pushedBack: true });
    const replies = [throttle(), partial(4), throttle(), partial(3), throttle(), partial(2)];
    const { write, sent } = scripted(replies);
    const { loop, waits, told, counts } = context();
    await sendWithRetries(write, loop, counts);
    expect(sent).toEqual([5, 5, 4, 4, 3, 3, 2]);
    expect(told).toEqual(sent); // the governor is told each attempt's items
    expect(waits).toEqual([10, 10, 10, 10, 10, 10]); // each stall is the first in a row; a partial waits at the foot
    expect(counts).toEqual({ afterError: 3, forLeftovers: 3 });
  });

  it('fails at once on an error not worth retrying, without a wait', async () => {
    const validation = Object.assign(new Error('bad item'), { name: 'ValidationException', $metadata: {} });
    const { write } = scripted([validation]);
    const { loop, waits, counts } = context();
    await expect(sendWithRetries(write, loop, counts)).rejects.toThrow('failed: ValidationException');
    expect(waits).toEqual([]);
  });

  it('sends again at once what a reply left without pushing back, spending no budget', async () => {
    // Statements that switched between UPDATE and INSERT: 4 such replies, more than maxAttempts, and no wait.
    const switched = (left: number) => ({ left, pushedBack: false });
    const { write, sent } = scripted([switched(5), switched(5), switched(4), switched(4)]);
    const { loop, waits, counts } = context();
    await sendWithRetries(write, loop, counts);
    expect(sent).toEqual([5, 5, 5, 4, 4]);
    expect(waits).toEqual([]);
    expect(counts).toEqual({ afterError: 0, forLeftovers: 0 });
  });
});
