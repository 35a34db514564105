import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach } from 'vitest';
import type { RetryPolicy } from '../../../lambdas/retry/backoff.js';
import type { Item } from '../../../lambdas/write/item-sink.js';

/** Retries without waiting, many times over: the writers' fault injection is heavy on purpose. */
export const PATIENT: RetryPolicy = { maxAttempts: 100, baseDelayMs: 1, maxDelayMs: 1 };
export const noSleep = async (_ms: number): Promise<void> => {};

/**
 * Tables keyed by `pk` (S) in the local engine (found through AWS_ENDPOINT_URL_DYNAMODB and the AWS_* env set by
 * test/global-setup.ts), each dropped after its test (the engine keeps every table in memory), and the client.
 */
export function pkTables(prefix: string) {
  const client = new DynamoDBClient({});
  const tables: string[] = [];
  afterEach(async () => {
    for (const table of tables.splice(0)) await client.send(new DeleteTableCommand({ TableName: table }));
  });
  afterAll(() => client.destroy());

  async function createTable(): Promise<string> {
    const table = `${prefix}-${process.pid}-${Date.now()}-${tables.length}`;
    await client.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      }),
    );
    tables.push(table);
    return table;
  }

  /** Everything in the table, by partition key. */
  async function scanTable(table: string): Promise<Map<string, Item>> {
    const items = new Map<string, Item>();
    for await (const page of paginateScan({ client }, { TableName: table })) {
      for (const item of page.Items ?? []) items.set(item.pk.S!, item);
    }
    return items;
  }

  return { client, createTable, scanTable };
}
