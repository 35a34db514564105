import { replyError } from '../../../lambdas/dynamodb-transport/reply-errors.js';

/**
 * The failures the SDK treats as transient that a BatchWriteItem can meet, each built as the request would
 * meet it: a Node network error as `http.request` emits it (dns.lookup's getaddrinfo failures, a connect
 * failure), or a DynamoDB reply as DynamoDbWriteTransport turns it into an error (replyError, the real
 * parser). Shared by the classifier's unit table and the fault-layer import.
 */

/** A Node system error: `code` is what the SDK's classifier reads (NODEJS_NETWORK_ERROR_CODES). */
function systemError(code: string, errno: number, syscall: string, detail: string): Error {
  return Object.assign(new Error(`${syscall} ${code} ${detail}`), { code, errno, syscall });
}

const HOST = 'dynamodb.eu-west-1.amazonaws.com';

/** A DNS lookup failed for now (a resolver timeout): getaddrinfo's EAI_AGAIN. */
export const eaiAgain = () => Object.assign(systemError('EAI_AGAIN', -3001, 'getaddrinfo', HOST), { hostname: HOST });
/** The resolver said the name does not exist (also what a resolver outage can look like): ENOTFOUND. */
export const enotfound = () => Object.assign(systemError('ENOTFOUND', -3008, 'getaddrinfo', HOST), { hostname: HOST });
/** No route to the host (a NAT or VPC endpoint going away): connect's EHOSTUNREACH. */
export const ehostunreach = () => systemError('EHOSTUNREACH', -113, 'connect', '10.0.0.1:443');
/** No route to the network (an interface going down): connect's ENETUNREACH. */
export const enetunreach = () => systemError('ENETUNREACH', -101, 'connect', '10.0.0.1:443');

/** A 429 that names nothing (a proxy or gateway in front of DynamoDB): retried as a throttle by its status. */
export const tooManyRequests = () => replyError(429, { 'content-type': 'text/plain' }, 'Too Many Requests');

/**
 * A global table's item being written from another Region at once, which the DynamoDB model marks
 * `@retryable` (the SDK's ReplicatedWriteConflictException class carries `$retryable`).
 */
export const replicatedWriteConflict = () =>
  replyError(
    400,
    {},
    JSON.stringify({
      __type: 'com.amazonaws.dynamodb.v20120810#ReplicatedWriteConflictException',
      message:
        'The request was rejected because one or more items in the request are being modified by a request in another Region.',
    }),
  );

/** X-Amz-Date's format, e.g. 20261124T220000Z. */
const amzDate = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');
const FIVE_MINUTES_MS = 5 * 60_000;

/** SigV4's message for a request signed at `signedAtMs` that a server whose clock says `serverMs` refuses. */
export function signatureSkewMessage(signedAtMs: number, serverMs: number): string {
  return signedAtMs < serverMs
    ? `Signature expired: ${amzDate(signedAtMs)} is now earlier than ${amzDate(serverMs - FIVE_MINUTES_MS)} (${amzDate(serverMs)} - 5 min.)`
    : `Signature not yet current: ${amzDate(signedAtMs)} is still later than ${amzDate(serverMs + FIVE_MINUTES_MS)} (${amzDate(serverMs)} + 5 min.)`;
}

/** DynamoDB's reply to such a request, as JSON: the exception SigV4 failures get, named by the service front end. */
export const signatureSkewReply = (signedAtMs: number, serverMs: number) => ({
  __type: 'com.amazon.coral.service#InvalidSignatureException',
  message: signatureSkewMessage(signedAtMs, serverMs),
});

/**
 * The error DynamoDbWriteTransport makes of that reply (400 InvalidSignatureException with SigV4's message), with
 * the server's time in its `Date` header.
 */
export const clockSkewRejection = (signedAtMs: number, serverMs: number) =>
  replyError(
    400,
    { date: new Date(serverMs).toUTCString(), 'x-amzn-requestid': 'skewed' },
    JSON.stringify(signatureSkewReply(signedAtMs, serverMs)),
  );

/** Whether SigV4 refuses a request signed at `signedAtMs` on a server whose clock says `serverMs`. */
export const outsideSigV4Window = (signedAtMs: number, serverMs: number) =>
  Math.abs(signedAtMs - serverMs) > FIVE_MINUTES_MS;
