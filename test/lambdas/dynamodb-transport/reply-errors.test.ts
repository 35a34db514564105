import { DynamoDBServiceException, ReplicatedWriteConflictException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { replyError, timeoutError } from '../../../lambdas/dynamodb-transport/reply-errors.js';
import { isRetryable, retryErrorType } from '../../../lambdas/retry/batch-retry.js';
import {
  clockSkewRejection,
  eaiAgain,
  ehostunreach,
  enetunreach,
  enotfound,
  replicatedWriteConflict,
  tooManyRequests,
} from '../../e2e/faults/transient-errors.js';

describe('replyError', () => {
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
    const error = replyError(status, headers, body);
    expect(error.name).toBe(name);
    expect(error.$metadata.httpStatusCode).toBe(status);
    expect(error.$fault).toBe(status >= 500 ? 'server' : 'client');
    expect(isRetryable(error)).toBe(retryable);
  });

  it("builds the SDK's own class for a modelled error, with the model's traits", () => {
    const conflict = replicatedWriteConflict();
    expect(conflict).toBeInstanceOf(ReplicatedWriteConflictException);
    expect(conflict.$retryable).toEqual({}); // the model's @retryable, as the SDK's class carries it
    const unmodelled = replyError(400, {}, '{"__type":"com.amazon.coral.service#UnrecognizedClientException"}');
    expect(unmodelled).toBeInstanceOf(DynamoDBServiceException);
    expect(unmodelled.name).toBe('UnrecognizedClientException');
    expect(unmodelled.$retryable).toBeUndefined();
  });

  it('keeps the reply status and headers as $response, where the SDK keeps them', () => {
    const error = replyError(400, { date: 'Tue, 24 Nov 2026 22:00:00 GMT' }, '{"__type":"x#ValidationException"}');
    expect(error.$response).toEqual({ statusCode: 400, headers: { date: 'Tue, 24 Nov 2026 22:00:00 GMT' } });
  });

  it('keeps the message and the request id', () => {
    const error = replyError(
      400,
      { 'x-amzn-requestid': 'REQ123' },
      '{"__type":"x#ResourceNotFoundException","message":"Requested resource not found"}',
    );
    expect(error.message).toBe('Requested resource not found');
    expect(error.$metadata.requestId).toBe('REQ123');
  });
});

const NOW = Date.parse('2026-11-24T22:00:00Z');
const MINUTE = 60_000;
/** A clock-skew rejection after which DynamoDbWriteTransport corrected its clock (clock-skew.ts marks it so). */
function correctedSkew() {
  const error = clockSkewRejection(NOW + 10 * MINUTE, NOW);
  error.$metadata.clockSkewCorrected = true;
  return error;
}
/** A network failure under another error, as a credential provider wraps what it met. */
const wrapped = (cause: Error) => Object.assign(new Error('could not load credentials', { cause }), { name: 'Error' });
const named = (name: string, props: object = {}) => Object.assign(new Error(name), { name, ...props });

describe("retry classification: the SDK's own rules (@smithy/core/retry), not a list of ours", () => {
  describe.each([
    // Node network codes the SDK counts as transient (NODEJS_NETWORK_ERROR_CODES): DNS and routing hiccups.
    ['EAI_AGAIN (DNS lookup timed out)', eaiAgain(), 'TRANSIENT'],
    ['ENOTFOUND (DNS said no such name)', enotfound(), 'TRANSIENT'],
    ['EHOSTUNREACH (no route to the host)', ehostunreach(), 'TRANSIENT'],
    ['ENETUNREACH (no route to the network)', enetunreach(), 'TRANSIENT'],
    ['a network code on the cause of another error', wrapped(enotfound()), 'TRANSIENT'],
    // NODEJS_TIMEOUT_ERROR_CODES and TRANSIENT_ERROR_CODES: a dropped or hung connection.
    ['ECONNRESET', named('Error', { code: 'ECONNRESET' }), 'TRANSIENT'],
    ['ECONNREFUSED', named('Error', { code: 'ECONNREFUSED' }), 'TRANSIENT'],
    ['EPIPE', named('Error', { code: 'EPIPE' }), 'TRANSIENT'],
    ['ETIMEDOUT', named('Error', { code: 'ETIMEDOUT' }), 'TRANSIENT'],
    ['our request timeout (TimeoutError)', timeoutError(5000), 'TRANSIENT'],
    // isThrottlingError: status 429, the throttling names, a $retryable throttling trait.
    ['HTTP 429 that names nothing', tooManyRequests(), 'THROTTLING'],
    [
      'ProvisionedThroughputExceededException',
      replyError(400, {}, '{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"}'),
      'THROTTLING',
    ],
    [
      'ThrottlingException',
      replyError(400, {}, '{"__type":"com.amazon.coral.availability#ThrottlingException"}'),
      'THROTTLING',
    ],
    ['RequestLimitExceeded', replyError(400, {}, '{"__type":"x#RequestLimitExceeded"}'), 'THROTTLING'],
    // The model's @retryable trait, carried by the SDK's class.
    ['ReplicatedWriteConflictException (global tables)', replicatedWriteConflict(), 'TRANSIENT'],
    // Clock skew: "Signature expired" is transient as such; another rejection once the clock was corrected.
    ['InvalidSignatureException "Signature expired"', clockSkewRejection(NOW - 10 * MINUTE, NOW), 'TRANSIENT'],
    ['a "Signature not yet current" after the clock was corrected', correctedSkew(), 'TRANSIENT'],
    ['a "Signature not yet current" with no correction', clockSkewRejection(NOW + 10 * MINUTE, NOW), 'CLIENT_ERROR'],
    // TRANSIENT_ERROR_STATUS_CODES: 500, 502, 503, 504; other 5xx are server errors the SDK does not retry.
    ['InternalServerError (500)', replyError(500, {}, '{"__type":"x#InternalServerError"}'), 'TRANSIENT'],
    ['ServiceUnavailable (503)', replyError(503, {}, '{"__type":"x#ServiceUnavailable"}'), 'TRANSIENT'],
    ['a proxy 502 page', replyError(502, {}, '<html>Bad Gateway</html>'), 'TRANSIENT'],
    ['501 Not Implemented', replyError(501, {}, ''), 'SERVER_ERROR'],
    // Client errors: the request itself is wrong, another try gets the same answer.
    ['ValidationException', replyError(400, {}, '{"__type":"x#ValidationException"}'), 'CLIENT_ERROR'],
    ['ResourceNotFoundException', replyError(400, {}, '{"__type":"x#ResourceNotFoundException"}'), 'CLIENT_ERROR'],
    [
      'AccessDeniedException (no clock correction)',
      replyError(400, {}, '{"__type":"x#AccessDeniedException"}'),
      'CLIENT_ERROR',
    ],
    [
      'UnrecognizedClientException (a wrong key)',
      replyError(400, {}, '{"__type":"x#UnrecognizedClientException"}'),
      'CLIENT_ERROR',
    ],
    [
      'an AbortError, even over a reset connection',
      named('AbortError', { cause: named('Error', { code: 'ECONNRESET' }) }),
      'CLIENT_ERROR',
    ],
    ['something thrown that is not an error', 'boom', 'CLIENT_ERROR'],
  ] as const)('%s', (_, error, type) => {
    const retryable = type === 'THROTTLING' || type === 'TRANSIENT';
    it(`is ${type}: ${retryable ? 'retried' : 'fails the batch at once'}`, () => {
      expect(retryErrorType(error)).toBe(type);
      expect(isRetryable(error)).toBe(retryable);
    });
  });
});
