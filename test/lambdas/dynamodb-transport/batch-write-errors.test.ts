import { describe, expect, it } from 'vitest';
import { batchWriteError } from '../../../lambdas/dynamodb-transport/batch-write-errors.js';
import { isRetryable } from '../../../lambdas/write/batch-retry.js';

describe('batchWriteError', () => {
  it.each([
    [
      'DynamoDB names it in __type',
      400,
      {},
      '{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"over"}',
      'ProvisionedThroughputExceededException',
      true,
    ],
    [
      'a coral availability throttle',
      400,
      {},
      '{"__type":"com.amazon.coral.availability#ThrottlingException","message":"Rate of requests exceeds"}',
      'ThrottlingException',
      true,
    ],
    ['a name in `code`', 400, {}, '{"code":"ValidationException","Message":"bad"}', 'ValidationException', false],
    [
      'a name only in the x-amzn-errortype header, with its suffix',
      400,
      { 'x-amzn-errortype': 'RequestLimitExceeded:http://internal.amazon.com/coral/' },
      '',
      'RequestLimitExceeded',
      true,
    ],
    ['a proxy 502 page that names nothing', 502, {}, '<html>Bad Gateway</html>', 'InternalServerError', true],
    ['a 403 that names nothing', 403, {}, '', 'Http403Error', false],
  ])('names the error as the SDK would: %s', (_, status, headers, body, name, retryable) => {
    const error = batchWriteError(status, headers, body);
    expect(error.name).toBe(name);
    expect(error.$metadata.httpStatusCode).toBe(status);
    expect(error.$fault).toBe(status >= 500 ? 'server' : 'client');
    expect(isRetryable(error)).toBe(retryable);
  });

  it('keeps the message and the request id', () => {
    const error = batchWriteError(
      400,
      { 'x-amzn-requestid': 'REQ123' },
      '{"__type":"x#ResourceNotFoundException","message":"Requested resource not found"}',
    );
    expect(error.message).toBe('Requested resource not found');
    expect(error.$metadata.requestId).toBe('REQ123');
  });
});
