import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import { createBucket, createTable, dynamodb, getText, listKeys, putText, runImport, scanAll } from '../harness.js';
import { expectRejects, parseRejectsFiles } from '../hostile/rejects-file.js';
import type { ExpectedReject } from '../hostile/corpus.js';
import { comparable } from './normalize-item.js';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';

type Item = Record<string, AttributeValue>;

/** The single-table request of the issue: keys from templates, a constant, a typed copy, the key columns dropped. */
const SINGLE_TABLE: Partial<ImportRequest> = {
  attributes: { PK: 'USER#{user_id}', SK: 'ORDER#{date}#{order_id}', entity: 'Order', GSI1SK: '{amount}' },
  exclude: ['user_id', 'order_id'],
  types: { GSI1SK: 'N', expires: 'TTL' },
};

/** An order's fields, and the expiry in the three spellings a TTL may take (all the same instant, `epoch`). */
function order(i: number) {
  const epoch = 1_900_000_000 + i * 3_600;
  const spellings = [
    new Date(epoch * 1000).toISOString().replace('.000Z', 'Z'), // 2030-03-17T17:46:40Z
    String(epoch), // epoch seconds
    `${new Date((epoch + 5.5 * 3_600) * 1000).toISOString().slice(0, 19)}+05:30`, // the wall clock 5h30 east of UTC
  ];
  return {
    user_id: `u${i % 37}`,
    date: `2024-05-${String((i % 28) + 1).padStart(2, '0')}`,
    order_id: String(10_000 + i),
    amount: `${i}.${String(i % 100).padStart(2, '0')}`,
    expires: spellings[i % 3],
    epoch,
  };
}

/** The item an order must become, written out from the fields (not by the code under test). */
function expectedItem(o: ReturnType<typeof order>): Item {
  return {
    PK: { S: `USER#${o.user_id}` },
    SK: { S: `ORDER#${o.date}#${o.order_id}` },
    entity: { S: 'Order' },
    GSI1SK: { N: o.amount },
    date: { S: o.date },
    amount: { S: o.amount },
    expires: { N: String(o.epoch) },
  };
}

/** Rows that must be rejected, by row index, with what is wrong and the reason's fragment. */
const BAD_CSV: Record<number, { change: Partial<ReturnType<typeof order>>; reason: string }> = {
  5: { change: { user_id: '' }, reason: 'attribute "PK": column "user_id" is empty' },
  17: { change: { order_id: '' }, reason: 'attribute "SK": column "order_id" is empty' },
  40: { change: { amount: 'n/a' }, reason: 'attribute "GSI1SK": not a number: "n/a"' },
  77: { change: { expires: '2030-02-30T00:00:00Z' }, reason: 'column "expires": not a TTL' },
  123: { change: { expires: '2030-01-02T03:04:05' }, reason: 'column "expires": not a TTL' },
  200: { change: { expires: '1960-01-01T00:00:00Z' }, reason: 'column "expires": a TTL before 1970' },
};

async function importInto(text: string, key: string, fields: Partial<ImportRequest>) {
  const bucket = await createBucket();
  await putText(bucket, key, text);
  const table = await createTable(['PK', 'S'], ['SK', 'S']);
  const run = await runImport({ bucket, key, table, chunkMiB: 4 / 1024, ...fields }, { maxConcurrency: 4 });
  const rejectKeys = run.summary.rejectsKey
    ? (await listKeys(bucket, run.summary.rejectsKey)).filter((k) => k.endsWith('.csv'))
    : [];
  const rejects = parseRejectsFiles(
    await Promise.all(rejectKeys.map(async (k) => Buffer.from(await getText(bucket, k)))),
  );
  return { ...run, table, bucket, rejects, items: await scanAll(table) };
}

describe('computed attributes, exclude and TTL through the whole workflow', () => {
  it('imports CSV into a single-table design item by item; bad rows rejected with their line and reason', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ ...order(i), ...BAD_CSV[i]?.change }));
    const columns = ['user_id', 'date', 'order_id', 'amount', 'expires'] as const;
    const text = [columns.join(','), ...rows.map((r) => columns.map((c) => r[c]).join(','))].join('\n') + '\n';

    const run = await importInto(text, 'in/orders.csv', SINGLE_TABLE);

    const bad = Object.keys(BAD_CSV).map(Number);
    expect(run.summary).toMatchObject({ rows: 300, written: 300 - bad.length, rejected: bad.length });
    expect(run.chunks.length).toBeGreaterThan(2);
    const good = rows.filter((_, i) => !bad.includes(i)).map(expectedItem);
    expect(comparable(run.items, ['PK', 'SK'])).toEqual(comparable(good, ['PK', 'SK']));
    const expected: ExpectedReject[] = bad.map((i) => ({ line: i + 2, reason: BAD_CSV[i].reason })); // line 1: header
    expectRejects(Buffer.from(text), run.rejects, expected);
  }, 120_000);

  it('imports JSON Lines the same way: numbers render as written, TTLs from strings and numbers', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => {
      const o = order(i);
      // user_id as a JSON number on every other line, amount always a number: both render as their exact text.
      const userId = i % 2 === 0 ? o.user_id : 7_000 + (i % 37);
      const expires = i % 3 === 1 ? o.epoch : o.expires; // the epoch spelling as a JSON number
      return { fields: { user_id: userId, date: o.date, order_id: o.order_id, amount: o.amount, expires }, o };
    });
    const badJson: Record<number, { line: string; reason: string }> = {
      9: { line: '{"date":"d","order_id":"1","amount":1}', reason: 'attribute "PK": column "user_id" is missing' },
      31: { line: '{"user_id":true,"date":"d","order_id":"1","amount":1}', reason: 'column "user_id" holds BOOL' },
      64: {
        line: '{"user_id":"x","date":"d","order_id":"","amount":1}',
        reason: 'attribute "SK": column "order_id" is empty',
      },
      99: {
        line: '{"user_id":"x","date":"d","order_id":"1","amount":1,"expires":false}',
        reason: 'attribute "expires": a TTL is',
      },
      150: {
        line: '{"user_id":"x","date":"d","order_id":"1","amount":1,"expires":"soon"}',
        reason: 'attribute "expires": not a TTL',
      },
    };
    // amount is written as a JSON number with its trailing zero (1.50), which a label must keep.
    const text =
      lines
        .map(
          ({ fields }, i) =>
            badJson[i]?.line ??
            JSON.stringify(fields).replace(`"amount":"${fields.amount}"`, `"amount":${fields.amount}`),
        )
        .join('\n') + '\n';

    const attributes = { ...SINGLE_TABLE.attributes, label: '{amount} EUR' };
    const run = await importInto(text, 'in/orders.jsonl', { ...SINGLE_TABLE, attributes });

    const bad = Object.keys(badJson).map(Number);
    expect(run.summary).toMatchObject({ rows: 200, written: 200 - bad.length, rejected: bad.length });
    const good = lines
      .filter((_, i) => !bad.includes(i))
      .map(({ fields, o }) => {
        const item = expectedItem({ ...o, user_id: String(fields.user_id) });
        // A JSON number stays a number; `label` is text, so it shows the number's own text (1.50, not 1.5).
        return { ...item, amount: { N: o.amount }, label: { S: `${o.amount} EUR` } };
      });
    expect(comparable(run.items, ['PK', 'SK'])).toEqual(comparable(good, ['PK', 'SK']));
    expectRejects(
      Buffer.from(text),
      run.rejects,
      bad.map((i) => ({ line: i + 1, reason: badJson[i].reason })),
    );
  }, 120_000);

  it('computes the keys for the write modes too: update merges into, delete removes the items the templates name', async () => {
    const existing: Item[] = ['1', '2', '3'].map((u) => ({
      PK: { S: `USER#${u}` },
      SK: { S: 'ORDER#a' },
      keep: { S: `kept-${u}` },
    }));
    const bucket = await createBucket();
    const table = await createTable(['PK', 'S'], ['SK', 'S']);
    await dynamodb.send(
      new BatchWriteItemCommand({ RequestItems: { [table]: existing.map((Item) => ({ PutRequest: { Item } })) } }),
    );
    const keys = { attributes: { PK: 'USER#{u}', SK: 'ORDER#{o}' }, exclude: ['u', 'o'] };
    await putText(bucket, 'in/update.csv', 'u,o,status\n1,a,paid\n');
    await putText(bucket, 'in/delete.csv', 'u,o\n2,a\n9,a\n');

    const updated = await runImport({ bucket, key: 'in/update.csv', table, mode: 'update', ...keys });
    const deleted = await runImport({
      bucket,
      key: 'in/delete.csv',
      table,
      mode: 'delete',
      allowWithoutBackup: true,
      ...keys,
    });

    expect(updated.summary).toMatchObject({ rows: 1, written: 1, rejected: 0 });
    expect(deleted.summary).toMatchObject({ rows: 2, deleted: 2, rejected: 0 }); // USER#9 has no item: fine
    expect(comparable(await scanAll(table), ['PK', 'SK'])).toEqual(
      comparable([{ ...existing[0], status: { S: 'paid' } }, existing[2]], ['PK', 'SK']),
    );
  });

  it.each([
    [
      'a CSV template names a column the header lacks',
      'in/o.csv',
      'user_id,date\n1,d\n',
      { attributes: { PK: 'USER#{userid}', SK: '{date}' } },
      'attributes.PK: {userid} is not among the columns [user_id, date]',
    ],
    [
      'exclude names a column the header lacks',
      'in/o.csv',
      'PK,SK,note\n1,d,x\n',
      { exclude: ['notes'] },
      'exclude: "notes" is not among the columns [PK, SK, note]',
    ],
    [
      'a JSON Lines template names a field the first record lacks',
      'in/o.jsonl',
      '{"user_id":1,"date":"d"}\n',
      { attributes: { PK: '{user}', SK: '{date}' } },
      "attributes.PK: {user} is not among the first record's fields [user_id, date]",
    ],
    [
      'a key column is excluded',
      'in/o.csv',
      'PK,SK\n1,d\n',
      { exclude: ['SK'] },
      'exclude: "SK" is the table\'s RANGE key; an item needs it',
    ],
    [
      'a template has a lone brace',
      'in/o.csv',
      'PK,SK\n1,d\n',
      { attributes: { entity: 'Order{' } },
      'attributes.entity: a lone "{"',
    ],
  ])('fails when %s, before any write: the table stays empty', async (_, key, text, fields, message) => {
    const bucket = await createBucket();
    await putText(bucket, key, text);
    const table = await createTable(['PK', 'S'], ['SK', 'S']);
    const outcome = await runImport({ bucket, key, table, ...fields }).catch((error: Error) => error);
    expect(outcome).toBeInstanceOf(Error);
    expect(outcome).toMatchObject({ name: 'InvalidRequestError', message: expect.stringContaining(message) });
    expect(await scanAll(table)).toEqual([]);
  });
});
