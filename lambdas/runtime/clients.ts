import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { Agent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/** Sockets per client: 16 BatchWriteItem requests in flight plus S3 reads, with room to spare. */
const MAX_SOCKETS = 64;

/**
 * The SDK's logger middleware runs after every call and, even with its default no-op logger, copies
 * the whole input and output through its sensitive-data filter: for a 25-item BatchWriteItem that was
 * ~4% of the import's CPU, for a log line nobody reads. Our handlers log what matters themselves.
 */
function withoutSdkLogging<T extends { middlewareStack: { remove(name: string): boolean } }>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

let s3: S3Client | undefined;
let dynamodb: DynamoDBClient | undefined;

function requestHandler() {
  return {
    httpAgent: new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
    httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
  };
}

/**
 * One keep-alive S3 client per container. Endpoints come from the standard AWS_ENDPOINT_URL_S3 variable;
 * a custom endpoint (MinIO locally) needs path-style addressing.
 */
export function s3Client(): S3Client {
  s3 ??= withoutSdkLogging(
    new S3Client({
      forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL),
      requestHandler: requestHandler(),
    }),
  );
  return s3;
}

/** One keep-alive DynamoDB client per container (AWS_ENDPOINT_URL_DYNAMODB points it at DynamoDB Local). */
export function dynamoDbClient(): DynamoDBClient {
  dynamodb ??= withoutSdkLogging(new DynamoDBClient({ requestHandler: requestHandler() }));
  return dynamodb;
}
