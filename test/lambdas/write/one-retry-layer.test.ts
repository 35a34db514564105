import {
  DeleteTableCommand,
  DescribeTableCommand,
  ProvisionedThroughputExceededException,
} from '@aws-sdk/client-dynamodb';
import { createServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { sendBatchWrite } from '../../../lambdas/runtime/aws-io.js';
import { createDynamoDbClient } from '../../../lambdas/runtime/clients.js';
import { isRetryable } from '../../../lambdas/write/batch-retry.js';
import { BatchWriter } from '../../../lambdas/write/batch-writer.js';
import { ensureTable } from '../../../local/local-stack.js';

/** The handlers' DynamoDB client, against DynamoDB Local (endpoint from the env the test setup sets). */
const client = createDynamoDbClient();
const table = `retry-layer-${process.pid}-${Date.now()}`;
afterAll(async () => {
  await client.send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
  client.destroy();
});

const throttle = () =>
  Object.assign(
    new ProvisionedThroughputExceededException({ message: 'throttled', $metadata: { httpStatusCode: 400 } }),
    { $retryable: { throttling: true } },
  );

/**
 * A fault where DynamoDB's reply would be: inside the SDK's retry (finalizeRequest, low priority), so the
 * SDK would retry it if it retried this command. Counts the calls that reach it, per command.
 */
function throttleFirst(times: number): Map<string, number> {
  const calls = new Map<string, number>();
  const mw =
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
      const name = context.commandName ?? '';
      const n = (calls.get(name) ?? 0) + 1;
      calls.set(name, n);
      if (n <= times) throw throttle();
      return next(args);
    };
  client.middlewareStack.add(
    mw as never,
    { step: 'finalizeRequest', priority: 'low', name: 'throttle-first' } as never,
  );
  return calls;
}

describe('one retry layer for BatchWriteItem', () => {
  it('the SDK does not retry a throttled BatchWriteItem: the BatchWriter sees each throttle and retries it', async () => {
    await ensureTable(client, table, { name: 'pk', type: 'S' });
    const calls = throttleFirst(2);
    try {
      const send = sendBatchWrite(client);
      await expect(
        send({ RequestItems: { [table]: [{ PutRequest: { Item: { pk: { S: 'a' } } } }] } }),
      ).rejects.toMatchObject({
        name: 'ProvisionedThroughputExceededException',
      });
      expect(calls.get('BatchWriteItemCommand')).toBe(1); // no hidden SDK attempts

      const writer = new BatchWriter({ table, send, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 } });
      await writer.add({ pk: { S: 'b' } }, 'b');
      await writer.flush();
      expect(writer.written).toBe(1);
      expect(calls.get('BatchWriteItemCommand')).toBe(3); // the second throttle, then the write

      // Other commands keep the SDK's retry: DescribeTable is throttled twice and still answers.
      const described = await client.send(new DescribeTableCommand({ TableName: table }));
      expect(described.Table?.TableName).toBe(table);
      expect(calls.get('DescribeTableCommand')).toBe(3);
    } finally {
      client.middlewareStack.remove('throttle-first');
    }
  });

  it('a request that gets no answer fails with a TimeoutError at the request timeout, which the writer retries', async () => {
    // A server that accepts connections and never answers.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const hung = createDynamoDbClient({ dynamodbEndpoint: `http://127.0.0.1:${port}`, dynamodbRequestTimeoutMs: 300 });
    try {
      const error = await sendBatchWrite(hung)({
        RequestItems: { t: [{ PutRequest: { Item: { pk: { S: 'a' } } } }] },
      }).catch((e: Error) => e);
      expect(error).toMatchObject({ name: 'TimeoutError' });
      expect(isRetryable(error)).toBe(true);
    } finally {
      hung.destroy();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
