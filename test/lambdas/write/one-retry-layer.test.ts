import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BatchWriteClient } from '../../../lambdas/runtime/batch-write-client.js';
import { createDynamoDbClient } from '../../../lambdas/runtime/clients.js';
import { isRetryable } from '../../../lambdas/write/batch-retry.js';
import { BatchWriter } from '../../../lambdas/write/batch-writer.js';

/**
 * A stand-in for a throttling DynamoDB (DynamoDB Local never throttles): it answers the first `throttles`
 * BatchWriteItem requests as DynamoDB does when a table is over its capacity, then accepts every item.
 * It counts the requests that reach it, so a hidden retry anywhere in the client would show.
 */
async function throttlingServer(throttles: number) {
  const received: IncomingMessage[] = [];
  const server = createHttpServer((request, reply) => {
    request.resume();
    request.on('end', () => {
      received.push(request);
      const throttled = received.length <= throttles;
      const body = throttled
        ? {
            __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
            message: 'The level of configured provisioned throughput for the table was exceeded.',
          }
        : { UnprocessedItems: {} };
      reply.writeHead(throttled ? 400 : 200, {
        'content-type': 'application/x-amz-json-1.0',
        'x-amzn-requestid': `request-${received.length}`,
      });
      reply.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { endpoint: `http://127.0.0.1:${port}`, received, close: () => server.close() };
}

function clientFor(endpoint: string, requestTimeoutMs = 5_000) {
  const dynamodb = createDynamoDbClient({ dynamodbEndpoint: endpoint, region: 'us-east-1' });
  return { dynamodb, batchWrites: new BatchWriteClient(dynamodb, requestTimeoutMs) };
}

const oneItem = (table: string) => ({ RequestItems: { [table]: [{ PutRequest: { Item: { pk: { S: 'a' } } } }] } });

describe('one retry layer for BatchWriteItem', () => {
  it('a throttle reply fails the one request that got it: the BatchWriter sees each throttle and retries it', async () => {
    const server = await throttlingServer(2);
    const { dynamodb, batchWrites } = clientFor(server.endpoint);
    try {
      const error = await batchWrites.send(oneItem('t')).catch((e: Error) => e);
      expect(error).toMatchObject({
        name: 'ProvisionedThroughputExceededException',
        $metadata: { httpStatusCode: 400, requestId: 'request-1' },
      });
      expect(isRetryable(error)).toBe(true);
      expect(server.received).toHaveLength(1); // no hidden attempts

      const send = batchWrites.send.bind(batchWrites);
      const writer = new BatchWriter({ table: 't', send, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 } });
      await writer.add({ pk: { S: 'b' } }, 'b');
      await writer.flush();
      expect(writer.written).toBe(1);
      expect(writer.throttledRetries).toBe(1);
      expect(server.received).toHaveLength(3); // the second throttle, then the write
    } finally {
      batchWrites.destroy();
      dynamodb.destroy();
      server.close();
    }
  });

  it('a request that gets no answer fails with a TimeoutError at the request timeout, which the writer retries', async () => {
    // A server that accepts connections and never answers.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const { dynamodb, batchWrites } = clientFor(`http://127.0.0.1:${port}`, 300);
    try {
      const started = performance.now();
      const error = await batchWrites.send(oneItem('t')).catch((e: Error) => e);
      expect(error).toMatchObject({ name: 'TimeoutError' });
      expect(isRetryable(error)).toBe(true);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290); // at the timeout, not before
    } finally {
      batchWrites.destroy();
      dynamodb.destroy();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("other commands keep the SDK client's retry: a DescribeTable throttled twice still answers", async () => {
    const server = await throttlingServer(2);
    const { dynamodb, batchWrites } = clientFor(server.endpoint);
    try {
      const described = await dynamodb.send(new DescribeTableCommand({ TableName: 't' }));
      expect(described.$metadata.attempts).toBe(3);
      expect(server.received.map((r) => r.headers['x-amz-target'])).toEqual(
        Array(3).fill('DynamoDB_20120810.DescribeTable'),
      );
    } finally {
      batchWrites.destroy();
      dynamodb.destroy();
      server.close();
    }
  });
});
