import { describe, expect, it } from 'vitest';
import { NOT_QUEUED, QUEUE_MAX_WAIT_SECONDS, queuePosition } from '../../../lambdas/preflight/import-queue.js';

const self = { id: 'exec-m', startTime: '2026-11-23T10:00:00.000Z' };
const run = (id: string, startTime: string, table: string | null = 'ngrams') => ({ id, startTime, table });

describe.each([
  // Nothing else runs: go.
  { running: [run('exec-m', self.startTime)], behind: null },
  // An earlier import into the same table: wait for it.
  { running: [run('exec-a', '2026-11-23T09:00:00.000Z')], behind: 'exec-a' },
  // An earlier import into another table, or one whose input could not be read: go.
  {
    running: [run('exec-a', '2026-11-23T09:00:00.000Z', 'words'), run('exec-b', '2026-11-23T09:00:00.000Z', null)],
    behind: null,
  },
  // A later import into the same table waits for this one, not the other way round.
  { running: [run('exec-z', '2026-11-23T11:00:00.000Z')], behind: null },
  // Same start time: the smaller id goes first, so two such imports never wait for each other.
  { running: [run('exec-a', self.startTime), run('exec-z', self.startTime)], behind: 'exec-a' },
  // Several ahead: named the earliest.
  { running: [run('exec-c', '2026-11-23T09:30:00.000Z'), run('exec-b', '2026-11-23T09:10:00.000Z')], behind: 'exec-b' },
])('queuePosition with $running.length running', ({ running, behind }) => {
  it(behind ? `waits behind ${behind}` : 'does not wait', () => {
    const queue = queuePosition(self, 'ngrams', running, NOT_QUEUED, 5);
    expect(queue).toMatchObject({ waiting: behind !== null, behind });
  });
});

describe('queuePosition over successive asks', () => {
  const ahead = [run('exec-a', '2026-11-23T09:00:00.000Z')];

  it('doubles the wait up to 15 minutes and adds up the time waited', () => {
    // 5, 10, ..., 640, then 900 (not 1,280) and 900 again.
    const waits: number[] = [];
    let queue = NOT_QUEUED;
    for (let i = 0; i < 10; i++) {
      queue = queuePosition(self, 'ngrams', ahead, queue, 5);
      waits.push(queue.waitSeconds);
    }
    expect(waits).toEqual([5, 10, 20, 40, 80, 160, 320, 640, QUEUE_MAX_WAIT_SECONDS, QUEUE_MAX_WAIT_SECONDS]);
    expect(queue.waitedSeconds).toBe(5 + 10 + 20 + 40 + 80 + 160 + 320 + 640 + 900);
  });

  it('stops waiting once the earlier import is gone, keeping the time waited', () => {
    const waiting = queuePosition(self, 'ngrams', ahead, NOT_QUEUED, 5);
    expect(queuePosition(self, 'ngrams', [], waiting, 5)).toEqual({
      waiting: false,
      behind: null,
      waitSeconds: 0,
      waitedSeconds: 5,
    });
  });
});
