import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { Agent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { DEFAULT_WRITE_CONFIG } from '../environment/config.js';

/** Sockets per client: an import's S3 reads and control calls (BatchWriteItem has its own: write-transport.ts). */
const MAX_SOCKETS = 64;

/**
 * Where the SDK clients point. Everything unset comes from the SDK's own configuration chain (in Lambda:
 * the function's region and role); local mode names the local engine here instead.
 */
export interface ClientOptions {
  /** e.g. the local engine's `http://127.0.0.1:PORT`. @default - the SDK's (AWS_ENDPOINT_URL_DYNAMODB, else AWS) */
  readonly dynamodbEndpoint?: string;
  /** e.g. the local engine's `http://127.0.0.1:PORT`; a custom endpoint gets path-style addressing. @default - the SDK's */
  readonly s3Endpoint?: string;
  readonly region?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /**
   * How long one DynamoDB request may take, connection and socket wait included, before it fails with
   * TimeoutError (and is retried by its caller). The import's stop margin counts on it.
   * @default - DEFAULT_WRITE_CONFIG.requestTimeoutMs (5 s)
   */
  readonly dynamodbRequestTimeoutMs?: number;
}

/**
 * The SDK's logger middleware runs after every call and, even with its default no-op logger, copies
 * the whole input and output through its sensitive-data filter: for a 25-item BatchWriteItem that was
 * ~4% of the import's CPU, for a log line nobody reads. Our handlers log what matters themselves.
 */
function withoutSdkLogging<T extends { middlewareStack: { remove(name: string): boolean } }>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

/** The NodeHttpHandler's options; `requestTimeout` only warns unless `throwOnRequestTimeout` is set. */
function requestHandler(requestTimeoutMs?: number) {
  return {
    httpAgent: new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
    httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
    ...(requestTimeoutMs ? { requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true } : {}),
  };
}

function common(options: ClientOptions, requestTimeoutMs?: number) {
  return {
    requestHandler: requestHandler(requestTimeoutMs),
    ...(options.region ? { region: options.region } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
}

/**
 * A keep-alive S3 client. A custom endpoint (the local engine, given here or as AWS_ENDPOINT_URL_S3) needs
 * path-style addressing.
 */
export function createS3Client(options: ClientOptions = {}, env: NodeJS.ProcessEnv = process.env): S3Client {
  const endpoint = options.s3Endpoint;
  return withoutSdkLogging(
    new S3Client({
      ...common(options),
      ...(endpoint ? { endpoint } : {}),
      forcePathStyle: Boolean(endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL),
    }),
  );
}

/** A keep-alive DynamoDB client whose requests time out (so a hung one is retried, not waited on). */
export function createDynamoDbClient(options: ClientOptions = {}): DynamoDBClient {
  const endpoint = options.dynamodbEndpoint;
  const timeout = options.dynamodbRequestTimeoutMs ?? DEFAULT_WRITE_CONFIG.requestTimeoutMs;
  return withoutSdkLogging(new DynamoDBClient({ ...common(options, timeout), ...(endpoint ? { endpoint } : {}) }));
}
