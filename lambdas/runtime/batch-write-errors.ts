import type { IncomingHttpHeaders } from 'node:http';

/** An error as the SDK's deserializer builds it: DynamoDB's name for it, its message and the reply's metadata. */
export interface DynamoDbReplyError extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: { readonly httpStatusCode: number; readonly requestId?: string };
}

/**
 * The error for a non-200 reply. DynamoDB's JSON protocol names the error in `__type` after a `#`
 * (`com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException`, or
 * `com.amazon.coral.availability#ThrottlingException`); the SDK uses that last part as the error's name,
 * and so do we, so write/batch-retry.ts tells throttles from other errors the same way for both clients.
 * A reply that is not JSON (a proxy's 502 page) is named by its status.
 */
export function batchWriteError(statusCode: number, headers: IncomingHttpHeaders, text: string): DynamoDbReplyError {
  let body: { __type?: string; message?: string; Message?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: named by status below
  }
  const name = body.__type?.split('#').at(-1) || (statusCode >= 500 ? 'InternalServerError' : `Http${statusCode}Error`);
  const message = body.message ?? body.Message ?? (text.slice(0, 200) || `HTTP ${statusCode}`);
  const requestId = headers['x-amzn-requestid'];
  return Object.assign(new Error(message), {
    name,
    $fault: statusCode >= 500 ? ('server' as const) : ('client' as const),
    $metadata: { httpStatusCode: statusCode, requestId: Array.isArray(requestId) ? requestId[0] : requestId },
  });
}

/** What a request that outlasts its timeout fails with: the name the SDK's NodeHttpHandler gives it. */
export function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`BatchWriteItem got no complete reply within ${timeoutMs} ms`), {
    name: 'TimeoutError',
  });
}
