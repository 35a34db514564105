import {
  BatchGetItemCommand,
  DeleteTableCommand,
  type AttributeValue,
  type BatchWriteItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { BatchWriteClient } from '../../../lambdas/dynamodb-transport/batch-write-client.js';
import { createDynamoDbClient } from '../../../lambdas/wiring/clients.js';
import { isRetryable } from '../../../lambdas/write/batch-retry.js';
import { ensureTable } from '../../../cli/local-run/local-stack.js';
import { startStandIn } from '../../e2e/control-plane/stand-in.js';

/** The handlers' clients against DynamoDB Local (endpoint from the env the test setup sets). */
const dynamodb = createDynamoDbClient();
const batchWrites = new BatchWriteClient(dynamodb, 5_000);
const table = `batch-write-client-${process.pid}-${Date.now()}`;
afterAll(async () => {
  await dynamodb.send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
  batchWrites.destroy();
  dynamodb.destroy();
});

/** One item of every attribute type, binary as raw bytes (not valid UTF-8), numbers at full precision. */
const everyType: Record<string, AttributeValue> = {
  pk: { S: 'every-type' },
  s: { S: 'quote " backslash \\ newline \n tab \t é 𝄞' },
  n: { N: '12345678901234567890123456789012345678' },
  b: { B: new Uint8Array([0, 255, 128, 10, 13]) },
  buf: { B: Buffer.from('binary buffer') },
  bool: { BOOL: false },
  nul: { NULL: true },
  ss: { SS: ['a', 'b'] },
  ns: { NS: ['1', '-2.5'] },
  bs: { BS: [new Uint8Array([1, 2]), new Uint8Array([3])] },
  l: { L: [{ S: 'x' }, { N: '1' }, { B: new Uint8Array([9]) }, { M: { deep: { BOOL: true } } }] },
  m: { M: { inner: { S: 'y' }, bytes: { B: new Uint8Array([7, 7]) } } },
};

const put = (item: Record<string, AttributeValue>): BatchWriteItemCommandInput => ({
  RequestItems: { [table]: [{ PutRequest: { Item: item } }] },
});

describe('BatchWriteClient', () => {
  it('writes items of every attribute type that read back equal through the SDK', async () => {
    await ensureTable(dynamodb, table, { name: 'pk', type: 'S' });
    const items = [everyType, ...Array.from({ length: 24 }, (_, i) => ({ pk: { S: `k${i}` }, v: { N: String(i) } }))];
    const output = await batchWrites.send({
      RequestItems: { [table]: items.map((Item) => ({ PutRequest: { Item } })) },
    });
    expect(output.UnprocessedItems).toEqual({});
    expect(output.$metadata.httpStatusCode).toBe(200);

    const read = await dynamodb.send(
      new BatchGetItemCommand({ RequestItems: { [table]: { Keys: items.map((item) => ({ pk: item.pk })) } } }),
    );
    const byKey = new Map((read.Responses?.[table] ?? []).map((item) => [item.pk.S, item]));
    expect(byKey.size).toBe(25);
    for (const item of items) {
      // The SDK reads binary back as Uint8Array: compare bytes, sets in any order.
      expect(normalize(byKey.get(item.pk.S))).toEqual(normalize(item));
    }
  });

  it('writes a binary value nested in a list in a map when no other value of the batch is binary', async () => {
    const item = {
      pk: { S: 'nested-binary' },
      m: { M: { l: { L: [{ S: 'x' }, { B: new Uint8Array([0, 1, 254]) }] } } },
    };
    await batchWrites.send(put(item));
    const read = await dynamodb.send(
      new BatchGetItemCommand({ RequestItems: { [table]: { Keys: [{ pk: item.pk }] } } }),
    );
    expect(normalize(read.Responses?.[table]?.[0])).toEqual(normalize(item));
  });

  it('fails when the table does not exist, with the name and status the SDK gives, not retryable', async () => {
    const missing = await batchWrites
      .send({ RequestItems: { [`${table}-missing`]: [{ PutRequest: { Item: { pk: { S: 'a' } } } }] } })
      .catch((e: Error) => e);
    expect(missing).toMatchObject({
      name: 'ResourceNotFoundException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
    expect(isRetryable(missing)).toBe(false);
  });

  it("fails when an item is invalid, naming DynamoDB's ValidationException and its message", async () => {
    const error = await batchWrites.send(put({ pk: { S: 'bad' }, n: { N: 'not a number' } })).catch((e: Error) => e);
    expect(error).toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
    expect((error as Error).message).toMatch(/number/i);
    expect(isRetryable(error)).toBe(false);
  });

  it('sends a SigV4-signed JSON 1.0 POST with the session token', async () => {
    const server = await startStandIn({ 'DynamoDB_20120810.BatchWriteItem': () => ({ UnprocessedItems: {} }) });
    const client = createDynamoDbClient({
      dynamodbEndpoint: server.endpoint,
      region: 'eu-west-3',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session-token' },
    } as never);
    const lean = new BatchWriteClient(client, 5_000);
    try {
      const input = put({ pk: { S: 'a' }, b: { B: new Uint8Array([1, 2, 3]) } });
      await lean.send(input);
      const [{ headers, body }] = server.requests;
      expect(body).toEqual({
        RequestItems: { [table]: [{ PutRequest: { Item: { pk: { S: 'a' }, b: { B: 'AQID' } } } }] },
      });
      expect(headers).toMatchObject({
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.BatchWriteItem',
        'x-amz-security-token': 'session-token',
        'content-length': String(Buffer.byteLength(JSON.stringify(body))), // the body as sent: JSON.stringify's
      });
      expect(headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-3\/dynamodb\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, Signature=[0-9a-f]{64}$/,
      );
    } finally {
      lean.destroy();
      client.destroy();
      await server.close();
    }
  });

  it("passes each call through its middleware stack under the SDK's client and command names", async () => {
    const seen: string[] = [];
    batchWrites.middlewareStack.add(
      ((next: (args: unknown) => Promise<unknown>, context: { clientName: string; commandName: string }) =>
        (args: unknown) => {
          seen.push(`${context.clientName}.${context.commandName}`);
          return next(args);
        }) as never,
      { step: 'initialize', name: 'watch' } as never,
    );
    try {
      await batchWrites.send(put({ pk: { S: 'watched' } }));
      expect(seen).toEqual(['DynamoDBClient.BatchWriteItemCommand']);
    } finally {
      batchWrites.middlewareStack.remove('watch');
    }
  });
});

const SETS = new Set(['SS', 'NS', 'BS']);

/** An item with binary values as byte arrays and sets (not lists) sorted, so written and read items compare. */
function normalize(value: unknown): unknown {
  if (value instanceof Uint8Array) return [...value];
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const normalized = normalize(v);
        return [k, SETS.has(k) ? (normalized as unknown[]).map((x) => JSON.stringify(x)).sort() : normalized];
      }),
    );
  return value;
}
