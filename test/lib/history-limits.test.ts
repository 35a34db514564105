import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_CHUNKS } from '../../lambdas/contract/limits.js';
import { QUEUE_FIRST_WAIT_SECONDS, QUEUE_MAX_WAIT_SECONDS } from '../../lambdas/preflight/import-queue.js';
import { MAX_PAUSED_WAIT_SECONDS } from '../../lambdas/admission/live-settings-follower.js';
import {
  HISTORY_EVENT_LIMIT,
  MAX_LAMBDA_TIMEOUT_SECONDS,
  PROMISED_MAX_CHUNK_HOURS,
  PROMISED_MAX_OBJECT_BYTES,
  PROMISED_MAX_PAUSED_HOURS,
  PROMISED_MAX_QUEUED_HOURS,
  PROMISED_MIN_SCAN_BYTES_PER_SECOND,
} from '../../lambdas/contract/limits.js';
import { ASL_DEFINITION_FILE } from '../../lib/workflow-tasks.js';

interface State {
  readonly Type: string;
  readonly Next?: string;
  readonly Default?: string;
  readonly Choices?: { readonly Next: string }[];
  readonly Retry?: { readonly MaxAttempts?: number }[];
  readonly ItemProcessor?: {
    readonly ProcessorConfig?: { readonly Mode?: string };
    readonly States: Record<string, State>;
  };
}
const definition = JSON.parse(readFileSync(new URL(`../../${ASL_DEFINITION_FILE}`, import.meta.url), 'utf8')) as {
  States: Record<string, State>;
};

/**
 * Events a Standard execution records (https://docs.aws.amazon.com/step-functions/latest/apireference/API_HistoryEvent.html):
 * a Lambda Task: TaskStateEntered, LambdaFunctionScheduled, LambdaFunctionStarted, LambdaFunctionSucceeded,
 * TaskStateExited (5); each retried attempt adds Scheduled, Started and Failed/TimedOut (3); Choice, Wait and
 * Pass: Entered and Exited (2); a Distributed Map in its parent: MapStateEntered, MapStateStarted,
 * MapRunStarted, MapRunSucceeded, MapStateSucceeded, MapStateExited (6); the execution: Started, Succeeded (2).
 */
const EVENTS = { task: 5, retriedAttempt: 3, twoEventState: 2, distributedMap: 6, execution: 2 } as const;

/** A state's worst case: every retrier of a Task used to its MaxAttempts (3 by default), on every call. */
function worstCase(states: Record<string, State>, name: string): number {
  const state = states[name];
  if (state.Type !== 'Task') return EVENTS.twoEventState;
  const retries = (state.Retry ?? []).reduce((sum, retrier) => sum + (retrier.MaxAttempts ?? 3), 0);
  return EVENTS.task + EVENTS.retriedAttempt * retries;
}

/** Follows `path` through the file (each state's Next, Default or a Choice) back to its first state: a real loop. */
function loopCost(states: Record<string, State>, path: string[]): number {
  path.forEach((name, i) => {
    const next = path[(i + 1) % path.length];
    const state = states[name];
    const exits = [state.Next, state.Default, ...(state.Choices ?? []).map((c) => c.Next)];
    expect(exits, `${name} leads to ${next}`).toContain(next);
  });
  return path.reduce((sum, name) => sum + worstCase(states, name), 0);
}

/** The worst case of a path of states run once each, in order (no loop back). */
function loopCostOf(states: Record<string, State>, path: string[]): number {
  return path.reduce((sum, name) => sum + worstCase(states, name), 0);
}

const invocationSeconds = MAX_LAMBDA_TIMEOUT_SECONDS - 60; // a checkpointing invocation stops well before 900 s

describe('worst-case execution history (25,000 events)', () => {
  const states = definition.States;

  it('of the parent: the largest object scanned, days queued, the Map, Summarize', () => {
    // 5 TiB at 50 MB/s, 840 s a call: 5.5e12 / 4.2e10 = 131 preflight calls.
    const scanCalls = Math.ceil(PROMISED_MAX_OBJECT_BYTES / (PROMISED_MIN_SCAN_BYTES_PER_SECOND * invocationSeconds));
    const scan = scanCalls * loopCost(states, ['Preflight', 'ScanComplete?']);
    // 24 h of asks for lanes 5 s, 10 s, ... apart, then every 300 s: fewer than 24 x 12 + 6 asks.
    const asks =
      Math.ceil((PROMISED_MAX_QUEUED_HOURS * 3600) / QUEUE_MAX_WAIT_SECONDS) +
      Math.log2(QUEUE_MAX_WAIT_SECONDS / QUEUE_FIRST_WAIT_SECONDS) +
      1;
    const queued =
      Math.ceil(asks) * loopCost(states, ['Preflight', 'ScanComplete?', 'WaitingForLanes?', 'WaitForLanes']);
    expect(states.ImportChunks.ItemProcessor?.ProcessorConfig?.Mode).toBe('DISTRIBUTED'); // chunks cost the parent nothing
    // A failed Map gives its lanes back, names its first failed chunk and fails: ReleaseLanes, ThresholdExceeded?,
    // FindFailedChunk and ImportFailed, instead of Summarize.
    const failed = loopCostOf(states, ['ReleaseLanes', 'ThresholdExceeded?', 'FindFailedChunk']) + EVENTS.twoEventState;
    const end = Math.max(worstCase(states, 'Summarize'), failed);
    const parent = EVENTS.execution + scan + queued + EVENTS.distributedMap + end;
    expect(parent).toBeLessThan(HISTORY_EVENT_LIMIT);
    // The same parent with an inline Map would add every chunk's loop: MAX_CHUNKS x (child history) events.
    expect(MAX_CHUNKS).toBe(1000);
  });

  // ImportChunk's retriers: 8 attempts for Lambda's service errors, its throttles and named transient ones, 2 for
  // timeouts: 5 + 3 x (8 + 2) = 35 events a call at worst. 412 calls over 96 h x (35 + 2) + 196 paused asks x
  // (35 + 2 + 2) + 2 + 2 + 2 = 22,894 of 25,000: one more attempt a call (+3 x 608 calls) would pass 24,700, so a
  // throttle is waited out longer through longer waits (MaxDelaySeconds 300, BackoffRate 2.5: up to 924 s), not more
  // attempts.
  it("of one chunk's child execution: its checkpoint loop for as long as one chunk may take", () => {
    const child = definition.States.ImportChunks.ItemProcessor!.States;
    // 96 h of 840 s invocations: 412 ImportChunk calls, each with all its retries, and the ChunkComplete? Choice;
    // and paused for the hours docs/guides/change-a-running-import.md promises, asking every 60 s at most (PausedWait).
    const invocations = Math.ceil((PROMISED_MAX_CHUNK_HOURS * 3600) / invocationSeconds);
    const pausedAsks = Math.ceil((PROMISED_MAX_PAUSED_HOURS * 3600) / MAX_PAUSED_WAIT_SECONDS) + 4;
    const history =
      EVENTS.execution +
      invocations * loopCost(child, ['ImportChunk', 'ChunkComplete?']) +
      pausedAsks * loopCost(child, ['ImportChunk', 'ChunkComplete?', 'PausedWait']) +
      worstCase(child, 'ChunkImported?') +
      Math.max(worstCase(child, 'ChunkImported'), worstCase(child, 'ChunkImportedWithLines'));
    expect(history).toBeLessThan(HISTORY_EVENT_LIMIT);
  });

  it('fails the check when the chunks Map is made inline again (the check itself)', () => {
    // An inline Map puts every child event into the parent: 1,000 chunks of even 4 calls each pass 25,000.
    const child = definition.States.ImportChunks.ItemProcessor!.States;
    const perChunk = 4 * loopCost(child, ['ImportChunk', 'ChunkComplete?']);
    expect(MAX_CHUNKS * perChunk).toBeGreaterThan(HISTORY_EVENT_LIMIT);
  });
});
