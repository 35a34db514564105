import type { PutItemCommandInput, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { StatementWriteFailedError } from '../../../lambdas/contract/errors.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import { MAX_SET_PER_UPDATE, insertRequest, updateRequests } from '../../../lambdas/write/item-requests.js';
import type { Item } from '../../../lambdas/write/item-sink.js';
import { ItemWriter, type ItemWriteCalls, type ItemWriterOptions } from '../../../lambdas/write/item-writer.js';
import { INSERT_STATEMENTS } from '../../../lambdas/write/modes/insert.js';
import { UPDATE_STATEMENTS } from '../../../lambdas/write/modes/update.js';
import type { StatementMode } from '../../../lambdas/write/statement-mode.js';

const KEYS: KeyAttribute[] = [
  { name: 'pk', type: 'S', role: 'HASH' },
  { name: 'sk', type: 'N', role: 'RANGE' },
];
const item = (pk: string, sk: string, extra: Item = {}): Item => ({ pk: { S: pk }, sk: { N: sk }, ...extra });
const named = (name: string, props: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...props });

/** A table in memory behind the two calls, with the replies a test scripts in front of it. */
function fakeTable(faults: (Error | undefined)[] = []) {
  const items = new Map<string, Item>();
  const sent: { op: string; input: PutItemCommandInput | UpdateItemCommandInput }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const keyText = (key: Item) => `${key.pk.S}|${key.sk.N}`;
  const reply = async <T>(op: string, input: PutItemCommandInput | UpdateItemCommandInput, apply: () => T) => {
    sent.push({ op, input });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight--;
    const fault = faults.shift();
    if (fault) throw fault;
    return apply();
  };
  const calls: ItemWriteCalls = {
    putItem: (input) =>
      reply('PutItem', input, () => {
        const key = keyText(input.Item!);
        if (input.ConditionExpression && items.has(key)) throw named('ConditionalCheckFailedException');
        items.set(key, input.Item!);
        return { $metadata: {} };
      }),
    updateItem: (input) =>
      reply('UpdateItem', input, () => {
        const key = keyText(input.Key!);
        const merged: Item = { ...(items.get(key) ?? input.Key!) };
        for (const [alias, name] of Object.entries(input.ExpressionAttributeNames ?? {}))
          merged[name] = input.ExpressionAttributeValues![alias.replace('#', ':')];
        items.set(key, merged);
        return { $metadata: {} };
      }),
  };
  return { calls, items, sent, maxInFlight: () => maxInFlight };
}

const noSleep = async () => {};

const writerOf = (mode: StatementMode, calls: ItemWriteCalls, more: Partial<ItemWriterOptions> = {}) =>
  new ItemWriter({ table: 't', mode, keys: KEYS, calls, sleep: noSleep, ...more });

describe('ItemWriter', () => {
  it('insert writes new keys, counts existing ones as skipped, and keeps the first row of a repeated key', async () => {
    const table = fakeTable();
    table.items.set('a|1', item('a', '1', { v: { S: 'existing' } }));
    const writer = writerOf(INSERT_STATEMENTS, table.calls);
    for (const [pk, v] of [
      ['a', 'new'],
      ['b', 'first'],
      ['b', 'second'],
      ['c', 'only'],
    ]) {
      await writer.writeNow(item(pk, '1', { v: { S: v } }));
    }
    expect([writer.written, writer.skipped]).toEqual([2, 2]);
    expect(table.items.get('a|1')!.v).toEqual({ S: 'existing' });
    expect(table.items.get('b|1')!.v).toEqual({ S: 'first' });
  });

  it('update applies the rows of one key in file order, many keys in flight at once', async () => {
    const table = fakeTable();
    const writer = writerOf(UPDATE_STATEMENTS, table.calls);
    // As the StatementWriter hands items over: 20 keys at once, a key's next row once its last one is written.
    for (let round = 0; round < 10; round++) {
      const rows = Array.from({ length: 20 }, (_, k) => item(`k${k}`, '1', { v: { N: String(round * 20 + k) } }));
      await Promise.all(rows.map((row) => writer.writeNow(row)));
    }
    expect(writer.written).toBe(200);
    // Each key's last row (i = 180 + k) wins.
    for (let k = 0; k < 20; k++) expect(table.items.get(`k${k}|1`)!.v).toEqual({ N: String(180 + k) });
    expect(table.maxInFlight()).toBeGreaterThan(1);
  });

  it('retries a throttle and a transient error, and does not retry a failed condition', async () => {
    const throttle = named('ProvisionedThroughputExceededException', { $metadata: { httpStatusCode: 400 } });
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const table = fakeTable([throttle, reset]);
    const writer = writerOf(INSERT_STATEMENTS, table.calls);
    await writer.writeNow(item('a', '1'));
    await writer.writeNow(item('a', '1'));
    expect([writer.written, writer.skipped, writer.throttledRetries]).toEqual([1, 1, 2]);
    expect(table.sent).toHaveLength(4); // throttled, reset, written; then one failed condition, not retried
  });

  it('fails when an error is not retryable, naming the call and the table', async () => {
    const table = fakeTable([named('ValidationException', { $metadata: { httpStatusCode: 400 } })]);
    const writer = writerOf(UPDATE_STATEMENTS, table.calls);
    const error = await writer.writeNow(item('a', '1', { v: { S: 'x' } })).catch((e: Error) => e);
    expect(error).toBeInstanceOf(StatementWriteFailedError);
    expect((error as Error).message).toMatch(/^UpdateItem on t failed: ValidationException/);
  });

  it('fails when throttles outlast the retry budget', async () => {
    const throttles = Array.from({ length: 3 }, () =>
      named('ThrottlingException', { $metadata: { httpStatusCode: 400 } }),
    );
    const table = fakeTable(throttles);
    const retry = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 };
    const writer = writerOf(INSERT_STATEMENTS, table.calls, { retry });
    await expect(writer.writeNow(item('a', '1'))).rejects.toThrow(
      /PutItem on t failed after 3 attempts \(last error: ThrottlingException\)/,
    );
  });
});

describe('single-item requests', () => {
  it('insert is a PutItem conditioned on no item with the key', () => {
    expect(insertRequest('t', item('a', '1'), KEYS)).toEqual({
      TableName: 't',
      Item: item('a', '1'),
      ConditionExpression: 'attribute_not_exists(#k)',
      ExpressionAttributeNames: { '#k': 'pk' },
    });
  });

  it('update SETs every non-key attribute through placeholders, whatever its name', () => {
    const [request] = updateRequests('t', item('a', '1', { 'a.b c': { S: 'x' }, size: { N: '2' } }), KEYS);
    expect(request).toEqual({
      TableName: 't',
      Key: item('a', '1'),
      UpdateExpression: 'SET #a0 = :a0, #a1 = :a1',
      ExpressionAttributeNames: { '#a0': 'a.b c', '#a1': 'size' },
      ExpressionAttributeValues: { ':a0': { S: 'x' }, ':a1': { N: '2' } },
    });
  });

  it('an item of key attributes only is one UpdateItem without an expression', () => {
    expect(updateRequests('t', item('a', '1'), KEYS)).toEqual([{ TableName: 't', Key: item('a', '1') }]);
  });

  it(`an item of more than ${MAX_SET_PER_UPDATE} attributes goes as several UpdateItems of the same key`, () => {
    const many: Item = {};
    for (let i = 0; i < 250; i++) many[`c${i}`] = { N: String(i) };
    const requests = updateRequests('t', item('a', '1', many), KEYS);
    expect(requests.map((r) => Object.keys(r.ExpressionAttributeNames!).length)).toEqual([100, 100, 50]);
    expect(requests.every((r) => r.UpdateExpression!.length < 4096)).toBe(true);
    expect(requests[2].ExpressionAttributeValues![':a49']).toEqual({ N: '249' });
  });
});
