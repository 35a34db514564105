import { ThrottledError, TransientServiceError } from '../contract/service-errors.js';
import { retryErrorType } from '../write/batch-retry.js';

/**
 * The error a handler ends with, named so the workflow's Retry can match it: a throttle or a transient failure of
 * an AWS call, as the SDK's own classifiers tell them (@smithy/core/retry, write/batch-retry.ts retryErrorType),
 * becomes ThrottledError or TransientServiceError, with the original as `cause` and its name in the message;
 * every other error (the pipeline's named ones, a validation error) stays as it is.
 */
export function nameServiceError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const type = retryErrorType(error);
  const message = `${error.name}: ${error.message}`;
  if (type === 'THROTTLING') return new ThrottledError(message, { cause: error });
  if (type === 'TRANSIENT') return new TransientServiceError(message, { cause: error });
  return error;
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
