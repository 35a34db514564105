import type { IncomingHttpHeaders } from 'node:http';

/** An error as the SDK's deserializer builds it: DynamoDB's name for it, its message and the reply's metadata. */
export interface DynamoDbReplyError extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: { readonly httpStatusCode: number; readonly requestId?: string };
}

/**
 * The error for a non-200 reply: an HTTP status, an exception name and a message
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html). DynamoDB's
 * JSON protocol names the exception in the body's `__type`
 * (`com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException`,
 * `com.amazon.coral.availability#ThrottlingException`), else in `code` or the `x-amzn-errortype` header.
 * We read them in the SDK's order and clean them as it does (@smithy/core's loadJsonRpcErrorCode: up to a
 * `,` or `:`, after a `#`), so write/batch-retry.ts tells throttles from other errors the same way for both
 * clients. A reply that names nothing (a proxy's 502 page) is named by its status.
 */
export function batchWriteError(statusCode: number, headers: IncomingHttpHeaders, text: string): DynamoDbReplyError {
  let body: { __type?: string; code?: string; message?: string; Message?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: named by the header or the status below
  }
  const raw = body.__type ?? body.code ?? firstHeader(headers['x-amzn-errortype']);
  const name = (raw && cleanErrorCode(raw)) || (statusCode >= 500 ? 'InternalServerError' : `Http${statusCode}Error`);
  const message = body.message ?? body.Message ?? (text.slice(0, 200) || `HTTP ${statusCode}`);
  return Object.assign(new Error(message), {
    name,
    $fault: statusCode >= 500 ? ('server' as const) : ('client' as const),
    $metadata: { httpStatusCode: statusCode, requestId: firstHeader(headers['x-amzn-requestid']) },
  });
}

function cleanErrorCode(raw: string): string {
  const code = raw.split(',')[0].split(':')[0];
  return code.includes('#') ? code.split('#')[1] : code;
}

/** A reply header's value (Node gives an array for a header sent more than once). */
export const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** What a request that outlasts its timeout fails with: the name the SDK's NodeHttpHandler gives it. */
export function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`BatchWriteItem got no complete reply within ${timeoutMs} ms`), {
    name: 'TimeoutError',
  });
}
