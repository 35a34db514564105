import type { LambdaContextLike } from '../../lambdas/environment/lambda-context.js';

/**
 * A scripted clock for one task's invocations: told how many times the invocation has read its remaining time
 * before (0 on its first read), it says whether the invocation is out of time now. Handlers stop at checkpoints
 * when their clock says so, so a test that scripts the clock stops them after a count of reads, the same on any
 * machine, where a short real timeout stops them wherever the machine's speed has got them to.
 *
 * What one read is depends on the handler: ImportChunk reads twice to set its stop margin and deadline timer,
 * then once per deadline check (every 25 records and after each block of records); Preflight reads once to
 * set its margin, then once per check (after each buffer or staged piece that made progress, and between objects).
 *
 * @example
 * // Each ImportChunk invocation stops at its check after 40 reads (margin, timer, 38 checks): ~950 records in.
 * await runLocalImport(request, { clocks: { ImportChunk: outOfTimeAfter(40) } });
 */
export type ScriptedClock = (reads: number) => boolean;

/**
 * What a scripted invocation's getRemainingTimeInMillis() answers while its script gives it time: a day.
 * The handlers derive their stop margins from their first reads (at most half of what they read:
 * lambda-context.ts `fitStopMargin`), and the import arms a real timer for "remaining less margin"
 * (`stopDeadline`), so with a day in hand that timer is at least 12 hours out and never fires during a run: the
 * invocation stops when its script says, neither earlier nor later, however fast or slow the machine is. A day
 * also stays under the 2^31 - 1 ms (24.8 days) past which Node fires a timer at once.
 */
export const SCRIPTED_TIME_LEFT_MS = 24 * 60 * 60 * 1000;

/** What a scripted invocation's getRemainingTimeInMillis() answers once out of time: past any margin. */
export const SCRIPTED_OUT_OF_TIME_MS = 0;

/**
 * The script of a per-invocation budget: the first `reads` reads of the remaining time see a day left, every
 * later one none. Preflight with 1 and ImportChunk with 2 stop at their first deadline check (give ImportChunk
 * at least 2: with 1, its deadline timer would be armed for "now").
 */
export function outOfTimeAfter(reads: number): ScriptedClock {
  if (!Number.isInteger(reads) || reads < 1) {
    throw new Error(`reads must be a whole number of at least 1, got ${reads}`);
  }
  return (read) => read >= reads;
}

/** A Lambda-like context whose remaining time runs down from `timeoutMs` from the moment it is made. */
export function lambdaContext(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  return { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
}

/** A Lambda-like context whose remaining time follows `clock`: a day, or none once the script says so. */
export function scriptedLambdaContext(clock: ScriptedClock): LambdaContextLike {
  let reads = 0;
  return {
    getRemainingTimeInMillis: () => (clock(reads++) ? SCRIPTED_OUT_OF_TIME_MS : SCRIPTED_TIME_LEFT_MS),
  };
}

/** The context of one invocation: on the real clock, or on `clock` when one is given. */
export function invocationContext(timeoutMs: number, clock?: ScriptedClock): LambdaContextLike {
  return clock ? scriptedLambdaContext(clock) : lambdaContext(timeoutMs);
}
