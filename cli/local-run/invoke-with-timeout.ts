import type { LambdaContextLike } from '../../lambdas/environment/lambda-context.js';
import { lambdaContext } from './lambda-clock.js';

/**
 * Slack past the nominal timeout before a local invocation counts as timed out. Lambda has none, but
 * a 2-core machine running the local engine and two test files at once can stall a handler that
 * already stopped at its checkpoint for seconds before it hands back.
 */
const HARD_TIMEOUT_GRACE_MS = 5000;

/**
 * The error Step Functions reports when a Lambda function runs past its timeout: `Lambda.Unknown`
 * ("Unhandled errors in Lambda are reported as Lambda.Unknown ... These include out-of-memory errors and
 * function timeouts": https://docs.aws.amazon.com/step-functions/latest/dg/bp-lambda-serviceexception.html),
 * so local runs exercise the workflow's real retrier.
 */
export class LambdaTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
    this.name = 'Lambda.Unknown';
  }
}

/**
 * Calls a handler as Lambda does: with a fresh context, and failing with Lambda.Unknown if it has not
 * returned by its timeout (Lambda would freeze it; here its late result is ignored). Checkpointing
 * handlers return well before; the workflow's Retry on Lambda.Unknown covers the rest. The timeout runs on
 * the real clock even when `context` is a scripted one (lambda-clock.ts).
 */
export async function invokeWithTimeout<T>(
  timeoutMs: number,
  invoke: (context: LambdaContextLike) => Promise<T>,
  context: LambdaContextLike = lambdaContext(timeoutMs),
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LambdaTimeoutError(timeoutMs)), timeoutMs + HARD_TIMEOUT_GRACE_MS);
  });
  try {
    return await Promise.race([invoke(context), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
