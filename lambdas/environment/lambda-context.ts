/** The part of the Lambda context the handlers use; the local runner provides one with its own clock. */
export interface LambdaContextLike {
  getRemainingTimeInMillis(): number;
}

/**
 * Preflight's margin (it only reads): a quarter of the invocation, at most 30 s, at least 100 ms. The
 * import derives its own from its write path (write/stop-margin.ts) and fits it with `fitStopMargin`.
 */
export function safetyMarginMs(totalMs: number): number {
  return Math.max(100, Math.min(30_000, totalMs * 0.25));
}

/** Returns a check that turns true once the invocation is within its safety margin of the deadline. */
export function deadlineCheck(
  context: LambdaContextLike,
  marginMs = safetyMarginMs(context.getRemainingTimeInMillis()),
): () => boolean {
  return () => context.getRemainingTimeInMillis() < marginMs;
}

/** At most half of an invocation is kept in hand for stopping: the other half is for work. */
export const MAX_MARGIN_SHARE = 0.5;

/**
 * The margin to use for an invocation of `totalMs`: the one required, unless that exceeds half the
 * invocation (a timeout too short for the retry policy); then half, and `fits` false so the caller can
 * warn. A margin never exceeds the invocation, and every invocation gets some time to make progress.
 */
export function fitStopMargin(requiredMs: number, totalMs: number): { marginMs: number; fits: boolean } {
  const most = Math.max(0, totalMs) * MAX_MARGIN_SHARE;
  return requiredMs <= most ? { marginMs: requiredMs, fits: true } : { marginMs: most, fits: false };
}

/** A deadline as both a check (polled by the importer) and a signal (ends the writer's waits at once). */
export interface StopDeadline {
  readonly reached: () => boolean;
  readonly signal: AbortSignal;
  /** Clears the timer when the invocation ends before its deadline. */
  readonly dispose: () => void;
}

/** The moment the invocation is within `marginMs` of its end, seen by polling or by timer, whichever is first. */
export function stopDeadline(context: LambdaContextLike, marginMs: number): StopDeadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, context.getRemainingTimeInMillis() - marginMs));
  const reached = () => {
    if (!controller.signal.aborted && context.getRemainingTimeInMillis() < marginMs) controller.abort();
    return controller.signal.aborted;
  };
  return { reached, signal: controller.signal, dispose: () => clearTimeout(timer) };
}
