/** The part of the Lambda context the handlers use; the local runner provides one with its own clock. */
export interface LambdaContextLike {
  getRemainingTimeInMillis(): number;
}

/**
 * Time to keep in hand when stopping at a checkpoint: a quarter of the invocation, at most 30 s (enough
 * to drain 16 in-flight BatchWriteItem requests with retries and write the rejects), at least 100 ms.
 */
export function safetyMarginMs(totalMs: number): number {
  return Math.max(100, Math.min(30_000, totalMs * 0.25));
}

/** Returns a check that turns true once the invocation is within its safety margin of the deadline. */
export function deadlineCheck(context: LambdaContextLike): () => boolean {
  const margin = safetyMarginMs(context.getRemainingTimeInMillis());
  return () => context.getRemainingTimeInMillis() < margin;
}
