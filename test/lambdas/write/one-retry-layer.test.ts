import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DynamoDbWriteTransport } from '../../../lambdas/dynamodb-transport/write-transport.js';
import { createDynamoDbClient } from '../../../lambdas/wiring/sdk-clients.js';
import { isRetryable } from '../../../lambdas/retry/batch-retry.js';
import { startStandIn } from '../../e2e/admission/stand-in.js';
import { BatchWriter } from '../../../lambdas/write/batch-writer.js';

const BATCH_WRITE = 'DynamoDB_20120810.BatchWriteItem';

/**
 * A throttling DynamoDB on the control-plane stand-in (the local engine never throttles): the first
 * `throttles` requests get DynamoDB's reply for a table over its capacity, later ones succeed (a
 * BatchWriteItem with every item written; a DescribeTable with no table). Its `requests` count what
 * reached it, so a hidden retry anywhere in the client would show.
 */
async function throttlingServer(throttles: number) {
  let received = 0;
  const answer = (success: unknown) => () =>
    ++received <= throttles
      ? {
          status: 400,
          headers: { 'x-amzn-requestid': `request-${received}` },
          json: {
            __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
            message: 'The level of configured provisioned throughput for the table was exceeded.',
          },
        }
      : success;
  return startStandIn({
    [BATCH_WRITE]: answer({ UnprocessedItems: {} }),
    'DynamoDB_20120810.DescribeTable': answer({}),
  });
}

function clientFor(endpoint: string, requestTimeoutMs = 5_000) {
  const dynamodb = createDynamoDbClient({ dynamodbEndpoint: endpoint, region: 'us-east-1' });
  return { dynamodb, writeTransport: new DynamoDbWriteTransport(dynamodb, requestTimeoutMs) };
}

const oneItem = (table: string) => ({ RequestItems: { [table]: [{ PutRequest: { Item: { pk: { S: 'a' } } } }] } });

describe('one retry layer for BatchWriteItem', () => {
  it('a throttle reply fails the one request that got it: the BatchWriter sees each throttle and retries it', async () => {
    const server = await throttlingServer(2);
    const { dynamodb, writeTransport } = clientFor(server.endpoint);
    try {
      const error = await writeTransport.batchWriteItem(oneItem('t')).catch((e: Error) => e);
      expect(error).toMatchObject({
        name: 'ProvisionedThroughputExceededException',
        $metadata: { httpStatusCode: 400, requestId: 'request-1' },
      });
      expect(isRetryable(error)).toBe(true);
      expect(server.requests).toHaveLength(1); // no hidden attempts

      const send = writeTransport.batchWriteItem.bind(writeTransport);
      const writer = new BatchWriter({ table: 't', send, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 } });
      await writer.add({ pk: { S: 'b' } }, 'b');
      await writer.flush();
      expect(writer.written).toBe(1);
      expect(writer.throttledRetries).toBe(1);
      expect(server.requests).toHaveLength(3); // the second throttle, then the write
    } finally {
      writeTransport.destroy();
      dynamodb.destroy();
      await server.close();
    }
  });

  it('a request that gets no answer fails with a TimeoutError at the request timeout, which the writer retries', async () => {
    // A server that accepts connections and never answers.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const { dynamodb, writeTransport } = clientFor(`http://127.0.0.1:${port}`, 300);
    try {
      const started = performance.now();
      const error = await writeTransport.batchWriteItem(oneItem('t')).catch((e: Error) => e);
      expect(error).toMatchObject({ name: 'TimeoutError' });
      expect(isRetryable(error)).toBe(true);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290); // at the timeout, not before
    } finally {
      writeTransport.destroy();
      dynamodb.destroy();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("other commands keep the SDK client's retry: a DescribeTable throttled twice still answers", async () => {
    const server = await throttlingServer(2);
    const { dynamodb, writeTransport } = clientFor(server.endpoint);
    try {
      const described = await dynamodb.send(new DescribeTableCommand({ TableName: 't' }));
      expect(described.$metadata.attempts).toBe(3);
      expect(server.requests.map((r) => r.target)).toEqual(Array(3).fill('DynamoDB_20120810.DescribeTable'));
    } finally {
      writeTransport.destroy();
      dynamodb.destroy();
      await server.close();
    }
  });
});
