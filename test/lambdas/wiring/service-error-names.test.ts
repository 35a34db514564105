import { LambdaServiceException } from '@aws-sdk/client-lambda';
import { describe, expect, it } from 'vitest';
import { BatchWriteFailedError } from '../../../lambdas/contract/errors.js';
import { nameServiceError, withNamedServiceErrors } from '../../../lambdas/wiring/service-error-names.js';

/** An AWS error as an SDK deserializer builds it: a name, a fault and the HTTP status. */
const awsError = (name: string, status: number) =>
  new LambdaServiceException({
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status },
  });

describe.each([
  // The throttles issue 26 names, each classified by the SDK's own list (@smithy/core/retry), none by ours.
  ['the Lambda API throttling GetAccountSettings', awsError('TooManyRequestsException', 429), 'ThrottledError'],
  ['a throttled API call', awsError('ThrottlingException', 400), 'ThrottledError'],
  ['the ledger table throttled', awsError('ProvisionedThroughputExceededException', 400), 'ThrottledError'],
  ["the account's DynamoDB request rate", awsError('RequestLimitExceeded', 400), 'ThrottledError'],
  ['any 429', awsError('SomethingNew', 429), 'ThrottledError'],
  ['a 503', awsError('ServiceUnavailable', 503), 'TransientServiceError'],
  ['a request timeout', Object.assign(new Error('socket hang up'), { name: 'TimeoutError' }), 'TransientServiceError'],
  // Not renamed: the pipeline's own names (a Catch or docs/guides/troubleshooting.md matches them) and errors no retry can fix.
  ['a named pipeline error', new BatchWriteFailedError('table kept throttling'), 'BatchWriteFailedError'],
  // The SDK's classifiers look at a cause too: a named error whose cause is a throttle keeps its name.
  [
    'a named error caused by a throttle',
    new BatchWriteFailedError('gave up', { cause: awsError('ProvisionedThroughputExceededException', 400) }),
    'BatchWriteFailedError',
  ],
  ['a validation error', awsError('ValidationException', 400), 'ValidationException'],
  ['a missing table', awsError('ResourceNotFoundException', 400), 'ResourceNotFoundException'],
])('nameServiceError(%s)', (_, error, name) => {
  it(`is named ${name}`, () => {
    const named = nameServiceError(error) as Error;
    expect(named.name).toBe(name);
    if (named !== error) {
      expect(named.cause).toBe(error);
      expect(named.message).toContain(error.name);
    }
  });
});

describe('withNamedServiceErrors', () => {
  it("rethrows the handler's throttle named, and passes its result through", async () => {
    const throttled = withNamedServiceErrors(async () => {
      throw awsError('ThrottlingException', 400);
    });
    await expect(throttled()).rejects.toMatchObject({ name: 'ThrottledError' });
    await expect(withNamedServiceErrors(async (n: number) => n + 1)(1)).resolves.toBe(2);
  });
});
