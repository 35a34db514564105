import { ImportError } from './errors.js';

/**
 * An AWS API kept throttling a handler's own call (the Lambda API, the ledger's DynamoDB table, Step Functions)
 * past the SDK's retries. Its name is what the workflow's Retry matches (a raw `ThrottlingException`,
 * `TooManyRequestsException`, `ProvisionedThroughputExceededException` or `RequestLimitExceeded` would not be:
 * `Lambda.TooManyRequestsException` is the invoke's throttle, not one the function meets).
 */
export class ThrottledError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ThrottledError';
  }
}

/** An AWS API call of a handler failed in a way the SDK calls transient (a timeout, a reset, a 502/503/504). */
export class TransientServiceError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TransientServiceError';
  }
}
