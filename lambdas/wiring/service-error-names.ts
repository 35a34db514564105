import { ThrottledError, TransientServiceError } from '../contract/service-errors.js';
import { retryErrorType } from '../retry/batch-retry.js';

/**
 * The error a handler ends with, named so the workflow's Retry can match it: a throttle or a transient failure of
 * an AWS call, as the SDK's own classifiers tell them (retry/batch-retry.ts retryErrorType),
 * becomes ThrottledError or TransientServiceError, with the original as `cause` and its name in the message;
 * every other error stays as it is: a validation error, and the pipeline's named ones (BatchWriteFailedError, ...)
 * even when a throttle is their `cause` (the SDK's classifiers also look at a cause), as their names are contract.
 */
export function nameServiceError(error: unknown): unknown {
  if (!(error instanceof Error) || !fromAnAwsCall(error)) return error;
  const type = retryErrorType(error);
  const message = `${error.name}: ${error.message}`;
  if (type === 'THROTTLING') return new ThrottledError(message, { cause: error });
  if (type === 'TRANSIENT') return new TransientServiceError(message, { cause: error });
  return error;
}

/**
 * Whether the error came out of an AWS call itself: a service's reply (`$metadata`, `$fault`), a Node network error
 * (`code`: ECONNRESET, ...) or the SDK's own TimeoutError; never one of the pipeline's errors, which have none.
 */
function fromAnAwsCall(error: Error): boolean {
  return '$metadata' in error || '$fault' in error || 'code' in error || error.name === 'TimeoutError';
}

/** `handler` with its throttles and transient AWS errors named (nameServiceError). */
export function withNamedServiceErrors<A extends unknown[], R>(
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return (...args) =>
    handler(...args).catch((error: unknown) => {
      throw nameServiceError(error);
    });
}
