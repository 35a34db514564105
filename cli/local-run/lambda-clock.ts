/** A Lambda-like context whose remaining time runs down from `timeoutMs` from the moment it is made. */
export function lambdaContext(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  return { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
}
