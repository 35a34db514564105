import {
  BatchExecuteStatementCommand,
  BatchWriteItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  type BatchExecuteStatementCommandInput,
  type BatchExecuteStatementCommandOutput,
  type AttributeValue,
  type BatchStatementResponse,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WRITE_RETRY } from '../../../lambdas/retry/backoff.js';
import { StatementWriteFailedError } from '../../../lambdas/contract/errors.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import type { Item } from '../../../lambdas/write/item-sink.js';
import { MAX_STATEMENT_BYTES } from '../../../lambdas/write/partiql-statements.js';
import { INSERT_STATEMENTS } from '../../../lambdas/write/modes/insert.js';
import { UPDATE_STATEMENTS } from '../../../lambdas/write/modes/update.js';
import { StatementWriter, type StatementWriteCalls } from '../../../lambdas/write/statement-writer.js';
import { seededRandom } from '../../fixtures/random.js';
import { PATIENT, noSleep, pkTables } from './pk-tables.js';

const { client, createTable, scanTable } = pkTables('statement-writer');
const KEYS: KeyAttribute[] = [{ name: 'pk', type: 'S', role: 'HASH' }];
const STATEMENT_MODES = { insert: INSERT_STATEMENTS, update: UPDATE_STATEMENTS };

async function putItems(table: string, items: Item[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    const requests = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: requests } }));
  }
}

/** The real calls against the local engine, each statement's verb recorded, with an optional fault in front. */
function realCalls(fault?: (input: BatchExecuteStatementCommandInput) => Promise<BatchExecuteStatementCommandOutput>) {
  const verbs: string[][] = [];
  const singles: string[] = [];
  const calls: StatementWriteCalls = {
    executeStatements: (input) => {
      verbs.push((input.Statements ?? []).map(({ Statement }) => Statement!.split(' ')[0]));
      return fault ? fault(input) : client.send(new BatchExecuteStatementCommand(input));
    },
    putItem: (input) => (singles.push('PutItem'), client.send(new PutItemCommand(input))),
    updateItem: (input) => (singles.push('UpdateItem'), client.send(new UpdateItemCommand(input))),
  };
  return { calls, verbs, singles };
}

/** The key a statement writes: an INSERT's `'pk': ?` in its VALUE tuple, an UPDATE's last parameter (WHERE "pk" = ?). */
function statementKey({ Statement, Parameters }: { Statement?: string; Parameters?: AttributeValue[] }): string {
  if (Statement!.startsWith('UPDATE')) return Parameters!.at(-1)!.S!;
  const names = [...Statement!.matchAll(/'([^']*)': \?/g)].map((match) => match[1]);
  return Parameters![names.indexOf('pk')]!.S!;
}

async function writeAll(writer: StatementWriter, items: Item[]): Promise<void> {
  for (const item of items) await writer.add(item, item.pk.S!);
  await writer.flush();
}

const itemOf = (pk: string, version: number, extra: Item = {}): Item => ({
  pk: { S: pk },
  version: { N: String(version) },
  ...extra,
});

describe('StatementWriter against the local engine', () => {
  it('inserts only keys with no item, the first row of a key winning, and counts the rest as skipped', async () => {
    const table = await createTable();
    const existing = Array.from({ length: 100 }, (_, i) => itemOf(`k${i * 10}`, -1, { keep: { S: 'old' } }));
    await putItems(table, existing);
    const rows = Array.from({ length: 1000 }, (_, i) => itemOf(`k${i}`, i));
    rows.push(itemOf('k1', 9999)); // a second row of a key this import inserts: the first one wins
    const { calls } = realCalls();
    const writer = new StatementWriter({ table, mode: INSERT_STATEMENTS, keys: KEYS, calls });
    await writeAll(writer, rows);
    expect(writer.written).toBe(900);
    expect(writer.skipped + writer.replaced).toBe(101);
    const items = await scanTable(table);
    expect(items.size).toBe(1000);
    for (const item of existing) expect(items.get(item.pk.S!)).toEqual(item);
    for (let i = 0; i < 1000; i++) if (i % 10 !== 0) expect(items.get(`k${i}`)).toEqual(itemOf(`k${i}`, i));
  });

  it("merges rows into existing items, creates missing ones, and applies a key's rows in file order", async () => {
    const table = await createTable();
    await putItems(
      table,
      Array.from({ length: 50 }, (_, i) => itemOf(`k${i}`, -1, { keep: { S: `kept ${i}` } })),
    );
    // 100 keys, half existing, each updated 8 times across batches in flight; `first` only on the first row.
    const rows: Item[] = [];
    for (let version = 0; version < 8; version++)
      for (let i = 0; i < 100; i++) rows.push(itemOf(`k${i}`, version, version === 0 ? { first: { N: '1' } } : {}));
    const { calls } = realCalls();
    const writer = new StatementWriter({ table, mode: UPDATE_STATEMENTS, keys: KEYS, calls, maxInFlight: 8 });
    await writeAll(writer, rows);
    expect(writer.written + writer.replaced).toBe(800);
    const items = await scanTable(table);
    expect(items.size).toBe(100);
    for (let i = 0; i < 100; i++) {
      const kept: Item = i < 50 ? { keep: { S: `kept ${i}` } } : {};
      expect(items.get(`k${i}`)).toEqual(itemOf(`k${i}`, 7, { first: { N: '1' }, ...kept }));
    }
  });

  it('sends an UPDATE that finds no item again as its INSERT, and leads with INSERT once UPDATEs keep missing', async () => {
    const table = await createTable();
    await putItems(table, [itemOf('there', -1, { keep: { S: 'yes' } })]);
    const { calls, verbs } = realCalls();
    const writer = new StatementWriter({ table, mode: UPDATE_STATEMENTS, keys: KEYS, calls, maxInFlight: 1 });
    const rows = Array.from({ length: 50 }, (_, i) => itemOf(`new${i}`, i));
    await writeAll(writer, [...rows, itemOf('there', 1)]);
    // Batch 1: 25 UPDATEs find nothing and go again as INSERTs; batch 2 leads with INSERT; `there` (batch 3) is
    // found by its INSERT and goes again as its UPDATE.
    expect(verbs).toEqual([
      Array(25).fill('UPDATE'),
      Array(25).fill('INSERT'),
      Array(25).fill('INSERT'),
      ['INSERT'],
      ['UPDATE'],
    ]);
    const items = await scanTable(table);
    expect(items.get('there')).toEqual(itemOf('there', 1, { keep: { S: 'yes' } }));
    for (const row of rows) expect(items.get(row.pk.S!)).toEqual(row);
    expect(writer.written).toBe(51);
  });

  it.each(['insert', 'update'] as const)(
    '%s ends with the same table when 30%% of statements and 10%% of requests are throttled',
    async (mode) => {
      const table = await createTable();
      const random = seededRandom(7);
      const throttled = Object.assign(new Error('throttled'), {
        name: 'ThrottlingException',
        $metadata: { httpStatusCode: 400 },
      });
      // The real reply for the statements let through, a ThrottlingError in the place of each one held back.
      const { calls } = realCalls(async (input) => {
        if (random() < 0.1) throw throttled;
        const statements = input.Statements ?? [];
        const held = statements.map(() => random() < 0.3);
        const sent = statements.filter((_, i) => !held[i]);
        const reply = sent.length
          ? await client.send(new BatchExecuteStatementCommand({ Statements: sent }))
          : undefined;
        const real = [...(reply?.Responses ?? [])];
        const Responses: BatchStatementResponse[] = held.map((h) =>
          h ? { Error: { Code: 'ThrottlingError', Message: 'slow down' } } : real.shift()!,
        );
        return { Responses, $metadata: {} };
      });
      const rows = Array.from({ length: 600 }, (_, i) => itemOf(`k${i % 300}`, i));
      const writer = new StatementWriter({
        table,
        mode: STATEMENT_MODES[mode],
        keys: KEYS,
        calls,
        retry: PATIENT,
        sleep: noSleep,
      });
      await writeAll(writer, rows);
      expect(writer.unprocessedRetries + writer.throttledRetries).toBeGreaterThan(10);
      const items = await scanTable(table);
      expect(items.size).toBe(300);
      // insert keeps a key's first row (version i), update its last (version i + 300).
      for (let i = 0; i < 300; i++)
        expect(items.get(`k${i}`)).toEqual(itemOf(`k${i}`, mode === 'insert' ? i : i + 300));
    },
  );

  it('writes a batch that keeps progressing, however many request throttles come between its partial replies', async () => {
    // 4 request throttles, then a reply that runs the first half of the statements (rounded up) and throttles the
    // rest, again and again: 25 -> 12 -> 6 -> 3 -> 1 -> 0 statements left, 20 throttles, never more than 4 in a row.
    // With the default 12 attempts counted over the batch's life, the 12th throttle failed it.
    const table = await createTable();
    const throttled = Object.assign(new Error('throttled'), {
      name: 'ThrottlingException',
      $metadata: { httpStatusCode: 400 },
    });
    let throttlesLeft = 4;
    const { calls } = realCalls(async (input) => {
      if (throttlesLeft-- > 0) throw throttled;
      throttlesLeft = 4;
      const statements = input.Statements ?? [];
      const taken = Math.ceil(statements.length / 2);
      const reply = await client.send(new BatchExecuteStatementCommand({ Statements: statements.slice(0, taken) }));
      const held: BatchStatementResponse[] = statements
        .slice(taken)
        .map(() => ({ Error: { Code: 'ThrottlingError', Message: 'slow down' } }));
      return { Responses: [...(reply.Responses ?? []), ...held], $metadata: {} };
    });
    const rows = Array.from({ length: 25 }, (_, i) => itemOf(`k${i}`, i));
    const retry = DEFAULT_WRITE_RETRY;
    const writer = new StatementWriter({ table, mode: INSERT_STATEMENTS, keys: KEYS, calls, retry, sleep: noSleep });
    await writeAll(writer, rows);
    expect(writer.written).toBe(25);
    expect([writer.throttledRetries, writer.unprocessedRetries]).toEqual([20, 4]);
    const items = await scanTable(table);
    for (const row of rows) expect(items.get(row.pk.S!)).toEqual(row);
  });

  it.each(['insert', 'update'] as const)(
    '%s never sends a key twice in one batch, nor in two batches in flight at once (the engine would accept it)',
    async (mode) => {
      // DynamoDB answers a BatchExecuteStatement that names a key twice with a ValidationException; the local engine
      // runs both statements instead (docs/limits.md), so this records what is sent rather than trusting the engine.
      const table = await createTable();
      const random = seededRandom(11);
      const inFlight = new Map<string, number>();
      const clashes: string[] = [];
      const { calls } = realCalls(async (input) => {
        const keys = (input.Statements ?? []).map(statementKey);
        for (const key of keys) {
          if (inFlight.has(key)) clashes.push(key);
          inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
        }
        try {
          return await client.send(new BatchExecuteStatementCommand(input));
        } finally {
          for (const key of keys) {
            const left = inFlight.get(key)! - 1;
            if (left === 0) inFlight.delete(key);
            else inFlight.set(key, left);
          }
        }
      });
      // 1,500 rows over 40 keys in random order: every batch of 25 would hold repeats if nothing kept them apart.
      const rows = Array.from({ length: 1500 }, (_, i) => itemOf(`k${Math.floor(random() * 40)}`, i));
      const writer = new StatementWriter({ table, mode: STATEMENT_MODES[mode], keys: KEYS, calls, maxInFlight: 8 });
      await writeAll(writer, rows);
      expect(clashes).toEqual([]);
      const items = await scanTable(table);
      // insert keeps each key's first row, update its last.
      const expected = new Map<string, Item>();
      for (const row of rows) if (mode === 'update' || !expected.has(row.pk.S!)) expected.set(row.pk.S!, row);
      expect(new Map([...items].sort())).toEqual(new Map([...expected].sort()));
    },
  );

  it('writes an item whose names make a statement too long as a single-item request, in both modes', async () => {
    const table = await createTable();
    const longName = 'n'.repeat(MAX_STATEMENT_BYTES);
    const long = itemOf('long', 1, { [longName]: { S: 'v' } });
    for (const mode of ['insert', 'update'] as const) {
      const { calls, singles, verbs } = realCalls();
      const writer = new StatementWriter({ table, mode: STATEMENT_MODES[mode], keys: KEYS, calls });
      await writeAll(writer, [itemOf('short', 1), long]);
      expect(singles).toEqual([mode === 'insert' ? 'PutItem' : 'UpdateItem']);
      expect(verbs.flat()).toHaveLength(1);
    }
    const items = await scanTable(table);
    expect(items.get('long')).toEqual(long);
    expect(items.get('short')).toEqual(itemOf('short', 1));
  });

  it('fails naming the key when a statement fails for a reason no retry mends', async () => {
    const table = await createTable();
    const { calls } = realCalls(async (input) => ({
      Responses: (input.Statements ?? []).map((_, i) =>
        i === 1 ? { Error: { Code: 'ValidationError', Message: 'Item size has exceeded the maximum' } } : {},
      ),
      $metadata: {},
    }));
    const writer = new StatementWriter({ table, mode: INSERT_STATEMENTS, keys: KEYS, calls });
    const adding = writeAll(writer, [itemOf('a', 1), itemOf('b', 1), itemOf('c', 1)]);
    await expect(adding).rejects.toThrow(StatementWriteFailedError);
    await expect(adding).rejects.toThrow(
      /INSERT into .* failed with ValidationError \(Item size .*\) for the item of key b/,
    );
  });
});
