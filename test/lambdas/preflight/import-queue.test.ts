import { describe, expect, it } from 'vitest';
import { admitted, NOT_QUEUED, QUEUE_MAX_WAIT_SECONDS, waitAgain } from '../../../lambdas/preflight/import-queue.js';

describe('waiting for lanes over successive asks', () => {
  it('doubles the wait up to 5 minutes and adds up the time waited', () => {
    // 5, 10, ..., 160, then 300 (not 320) and 300 again.
    const waits: number[] = [];
    let queue = NOT_QUEUED;
    for (let i = 0; i < 8; i++) {
      queue = waitAgain(queue, 'waiting: full', 5);
      waits.push(queue.waitSeconds);
    }
    expect(waits).toEqual([5, 10, 20, 40, 80, 160, QUEUE_MAX_WAIT_SECONDS, QUEUE_MAX_WAIT_SECONDS]);
    expect(queue).toMatchObject({ waiting: true, reason: 'waiting: full' });
    expect(queue.waitedSeconds).toBe(5 + 10 + 20 + 40 + 80 + 160 + 300);
  });

  it('stops waiting once admitted, keeping the time waited', () => {
    const waiting = waitAgain(waitAgain(NOT_QUEUED, 'full', 5), 'full', 5);
    expect(admitted(waiting)).toEqual({ waiting: false, reason: null, waitSeconds: 0, waitedSeconds: 15 });
  });

  it('starts from the configured first wait (local runs and tests use a short one)', () => {
    expect(waitAgain(NOT_QUEUED, 'full', 0.05).waitSeconds).toBe(0.05);
  });
});
