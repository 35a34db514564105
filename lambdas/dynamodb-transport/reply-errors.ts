import { BatchWriteItem$, DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { TypeRegistry } from '@smithy/core/schema';
import type { IncomingHttpHeaders } from 'node:http';

/** An error as the SDK's deserializer builds it: DynamoDB's name for it, its message and the reply's metadata. */
export interface DynamoDbReplyError extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: { readonly httpStatusCode: number; readonly requestId?: string; clockSkewCorrected?: boolean };
  /** The reply's status and headers, where the SDK keeps them (its `Date` tells the server's clock: clock-skew.ts). */
  readonly $response: { readonly statusCode: number; readonly headers: IncomingHttpHeaders };
  /** The model's `@retryable` trait, on the errors whose SDK class has it (ReplicatedWriteConflictException). */
  readonly $retryable?: { readonly throttling?: boolean };
}

/**
 * The namespace of DynamoDB's model (com.amazonaws.dynamodb), under which the SDK registers each modelled
 * error's class, taken from BatchWriteItem's own schema: a module that uses it loads the schemas module, whose
 * registrations would otherwise be left out of a bundle that does not send through the client.
 */
const DYNAMODB_NAMESPACE = BatchWriteItem$[1];

/**
 * The error for a non-200 reply: an HTTP status, an exception name and a message
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html). DynamoDB's
 * JSON protocol names the exception in the body's `__type`
 * (`com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException`,
 * `com.amazon.coral.availability#ThrottlingException`), else in `code` or the `x-amzn-errortype` header.
 * We read them in the SDK's order and clean them as it does (@smithy/core's loadJsonRpcErrorCode: up to a
 * `,` or `:`, after a `#`). A reply that names nothing (a proxy's 502 page) is named by its status.
 *
 * The error is an instance of the SDK's own class for that name, found as its JSON protocol finds it
 * (AwsJsonRpcProtocol.handleError: the model's error schema in the TypeRegistry, then its constructor), so it
 * carries what the model says of it, `$retryable` included; a name the model does not have (an
 * InvalidSignatureException from the service front end) gets DynamoDBServiceException, as in the SDK. So
 * retry/batch-retry.ts classifies the errors of both clients alike.
 */
export function replyError(statusCode: number, headers: IncomingHttpHeaders, text: string): DynamoDbReplyError {
  let body: { __type?: string; code?: string; message?: string; Message?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: named by the header or the status below
  }
  const raw = body.__type ?? body.code ?? firstHeader(headers['x-amzn-errortype']);
  const name = (raw && cleanErrorCode(raw)) || (statusCode >= 500 ? 'InternalServerError' : `Http${statusCode}Error`);
  const message = body.message ?? body.Message ?? (text.slice(0, 200) || `HTTP ${statusCode}`);
  const $fault = statusCode >= 500 ? ('server' as const) : ('client' as const);
  const $metadata = { httpStatusCode: statusCode, requestId: firstHeader(headers['x-amzn-requestid']) };
  const ErrorClass = modelledErrorClass(name) ?? DynamoDBServiceException;
  const error = new ErrorClass({ name, $fault, message, $metadata });
  return Object.assign(error, { $response: { statusCode, headers } }) as DynamoDbReplyError;
}

/** The SDK's class for one of DynamoDB's modelled errors, registered when the client's schemas load. */
function modelledErrorClass(name: string): typeof DynamoDBServiceException | undefined {
  const registry = TypeRegistry.for(DYNAMODB_NAMESPACE);
  try {
    return registry.getErrorCtor(registry.getSchema(name) as never) as typeof DynamoDBServiceException | undefined;
  } catch {
    return undefined; // not a shape of the model: getSchema throws
  }
}

function cleanErrorCode(raw: string): string {
  const code = raw.split(',')[0].split(':')[0];
  return code.includes('#') ? code.split('#')[1] : code;
}

/** A reply header's value (Node gives an array for a header sent more than once). */
export const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** What a request that outlasts its timeout fails with: the name the SDK's NodeHttpHandler gives it. */
export function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`the request got no complete reply within ${timeoutMs} ms`), {
    name: 'TimeoutError',
  });
}
