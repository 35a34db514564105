import { BatchWriteItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { generateDynamoJson } from '../../fixtures/json-lines.js';
import { comparable } from '../formats/normalize-item.js';
import { createBucket, createTable, dynamodb, putText, runImport, scanAll } from '../harness.js';

type Item = Record<string, AttributeValue>;

/**
 * insert and update go as PartiQL statements (write/statement-writer.ts): every attribute type must land as
 * BatchWriteItem's PutRequest would land it, and any attribute name, including those PartiQL reads as syntax.
 */
describe('insert and update as PartiQL statements, through the whole workflow', () => {
  it.each(['insert', 'update'] as const)(
    '%s writes every attribute type of a DynamoDB JSON file into an empty table exactly as the file holds it',
    async (mode) => {
      const fixture = generateDynamoJson(400);
      const bucket = await createBucket();
      await putText(bucket, 'in/items.json', fixture.text);
      const table = await createTable(['pk', 'S'], ['sk', 'N']);
      const { summary } = await runImport({ bucket, key: 'in/items.json', table, mode, chunkMiB: 0.05 });
      expect(summary).toMatchObject({
        mode,
        rows: fixture.rows,
        written: fixture.items.length,
        skipped: 0,
        rejected: fixture.rejects.length,
      });
      expect(comparable(await scanAll(table), ['pk', 'sk'])).toEqual(comparable(fixture.items, ['pk', 'sk']));
    },
    120_000,
  );

  it.each([
    [
      'PartiQL reads as syntax (quotes, dots, brackets, reserved words, spaces)',
      ['select', 'a.b', "it's", 'say "hi"', 'with space', 'naïve', 'l[0]', 'VALUE'],
    ],
    ['an update expression reads as placeholders (sent as UpdateItem)', ['#x', ':y', 'a#b', 'c:d']],
  ])('takes attribute names %s as written', async (_, names) => {
    const bucket = await createBucket();
    const table = await createTable(['id', 'S']);
    const kept: Item = { id: { S: 'old' }, [names[0]]: { S: 'before' }, untouched: { S: 'kept' } };
    await dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [table]: [{ PutRequest: { Item: kept } }] } }));
    const record = (id: string, value: string) =>
      JSON.stringify(Object.fromEntries([['id', id], ...names.map((name) => [name, `${value} ${name}`])]));
    await putText(bucket, 'in/first.jsonl', [record('new', 'first'), record('old', 'first')].join('\n'));
    await putText(bucket, 'in/second.jsonl', [record('new', 'second'), record('old', 'second')].join('\n'));
    const itemOf = (id: string, value: string, extra: Item = {}): Item => ({
      id: { S: id },
      ...Object.fromEntries(names.map((name) => [name, { S: `${value} ${name}` }])),
      ...extra,
    });

    const inserted = await runImport({ bucket, key: 'in/first.jsonl', table, mode: 'insert' });
    expect(inserted.summary).toMatchObject({ status: 'SUCCEEDED', written: 1, skipped: 1 });
    const afterInsert = new Map((await scanAll(table)).map((item) => [item.id.S, item]));
    expect(afterInsert.get('new')).toEqual(itemOf('new', 'first'));
    expect(afterInsert.get('old')).toEqual(kept);

    const updated = await runImport({ bucket, key: 'in/second.jsonl', table, mode: 'update' });
    expect(updated.summary).toMatchObject({ status: 'SUCCEEDED', written: 2, skipped: 0 });
    const afterUpdate = new Map((await scanAll(table)).map((item) => [item.id.S, item]));
    expect(afterUpdate.get('new')).toEqual(itemOf('new', 'second'));
    expect(afterUpdate.get('old')).toEqual(itemOf('old', 'second', { untouched: { S: 'kept' } }));
    expect(afterUpdate.size).toBe(2);
  });
});
