import { describe, expect, it } from 'vitest';
import { dynamoJsonFormat } from '../../../../lambdas/formats/json/dynamo-json-format.js';
import { jsonLinesFormat } from '../../../../lambdas/formats/json/json-lines-format.js';
import type { MappedRecord, RecordSchema } from '../../../../lambdas/formats/record-format.js';
import type { KeyAttribute } from '../../../../lambdas/contract/workflow-payloads.js';

const PK: KeyAttribute = { name: 'PK', type: 'S', role: 'HASH' };
const SK: KeyAttribute = { name: 'SK', type: 'S', role: 'RANGE' };
const ORDERS: RecordSchema = {
  columns: [],
  keys: [PK, SK],
  types: { GSI1SK: 'N', expires: 'TTL' },
  attributes: { PK: 'USER#{user_id}', SK: 'ORDER#{date}#{order_id}', entity: 'Order', GSI1SK: '{amount}' },
  exclude: ['user_id', 'order_id'],
};
const EXPIRES = 1_893_553_445; // 2030-01-02T03:04:05Z

const record = (line: string) => ({ raw: Buffer.from(`${line}\n`), offset: 0, line: 1 });
const jsonl = (schema: RecordSchema, line: string): MappedRecord =>
  jsonLinesFormat().createMapper(schema)([record(line)])[0];
const dynamoJson = (schema: RecordSchema, line: string): MappedRecord =>
  dynamoJsonFormat().createMapper(schema)([record(line)])[0];

const ORDER_ITEM = {
  date: { S: '2024-05-01' },
  PK: { S: 'USER#42' },
  SK: { S: 'ORDER#2024-05-01#991' },
  entity: { S: 'Order' },
  GSI1SK: { N: '1.50' },
  amount: { N: '1.50' },
  expires: { N: String(EXPIRES) },
};

describe('JSON Lines with computed attributes', () => {
  it('renders keys from strings and numbers (a number as its exact text), excludes, types, converts a TTL', () => {
    const line = '{"user_id":42,"date":"2024-05-01","order_id":"991","amount":1.50,"expires":"2030-01-02T03:04:05Z"}';
    expect(jsonl(ORDERS, line)).toEqual({ ok: true, item: ORDER_ITEM, key: 'USER#42\u0000ORDER#2024-05-01#991' });
  });

  it('reads a TTL given as epoch seconds, and leaves an item without the TTL attribute alone', () => {
    const schema: RecordSchema = {
      columns: [],
      keys: [{ name: 'id', type: 'S', role: 'HASH' }],
      types: { ttl: 'TTL' },
    };
    expect(jsonl(schema, `{"id":"a","ttl":${EXPIRES}}`)).toMatchObject({
      ok: true,
      item: { ttl: { N: String(EXPIRES) } },
    });
    expect(jsonl(schema, '{"id":"b"}')).toEqual({ ok: true, item: { id: { S: 'b' } }, key: 'b' });
  });

  it('overrides an attribute of the same name with the computed one', () => {
    const schema: RecordSchema = {
      columns: [],
      keys: [{ name: 'id', type: 'S', role: 'HASH' }],
      types: {},
      attributes: { id: 'X#{id}' },
    };
    expect(jsonl(schema, '{"id":"a"}')).toEqual({ ok: true, item: { id: { S: 'X#a' } }, key: 'X#a' });
  });
});

describe.each([
  {
    problem: 'a placeholder field is missing',
    line: '{"date":"d","order_id":"1","amount":1}',
    reason: 'attribute "PK": column "user_id" is missing',
  },
  {
    problem: 'a placeholder field is an empty string',
    line: '{"user_id":"","date":"d","order_id":"1","amount":1}',
    reason: 'attribute "PK": column "user_id" is empty',
  },
  {
    problem: 'a placeholder field is a boolean',
    line: '{"user_id":true,"date":"d","order_id":"1","amount":1}',
    reason: 'attribute "PK": column "user_id" holds BOOL; a template reads S and N only',
  },
  {
    problem: 'a placeholder field is null',
    line: '{"user_id":null,"date":"d","order_id":"1","amount":1}',
    reason: 'column "user_id" holds NULL',
  },
  {
    problem: 'a placeholder field is an object',
    line: '{"user_id":{"a":1},"date":"d","order_id":"1","amount":1}',
    reason: 'column "user_id" holds M',
  },
  {
    problem: 'a placeholder field is an array',
    line: '{"user_id":[1],"date":"d","order_id":"1","amount":1}',
    reason: 'column "user_id" holds L',
  },
  {
    problem: 'a typed computed attribute is not a number',
    line: '{"user_id":1,"date":"d","order_id":"1","amount":"lots"}',
    reason: 'attribute "GSI1SK": not a number: "lots"',
  },
  {
    problem: 'a TTL is a date without a zone',
    line: '{"user_id":1,"date":"d","order_id":"1","amount":1,"expires":"2030-01-02T03:04:05"}',
    reason: 'attribute "expires": not a TTL',
  },
  {
    problem: 'a TTL is a boolean',
    line: '{"user_id":1,"date":"d","order_id":"1","amount":1,"expires":true}',
    reason: 'attribute "expires": a TTL is a date-time string or a number of epoch seconds, got BOOL',
  },
  {
    problem: 'a TTL number has a fraction',
    line: '{"user_id":1,"date":"d","order_id":"1","amount":1,"expires":1.5}',
    reason: 'attribute "expires": not a TTL',
  },
])('JSON Lines with computed attributes', ({ problem, line, reason }) => {
  it(`fails when ${problem}`, () => {
    expect(jsonl(ORDERS, line)).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });
});

describe('DynamoDB JSON with computed attributes', () => {
  it('renders from S and N attributes, excludes, types and converts a TTL, in an export wrapper', () => {
    const line = JSON.stringify({
      Item: {
        user_id: { N: '42' },
        date: { S: '2024-05-01' },
        order_id: { S: '991' },
        amount: { N: '1.50' },
        expires: { N: String(EXPIRES) },
      },
    });
    expect(dynamoJson(ORDERS, line)).toEqual({ ok: true, item: ORDER_ITEM, key: 'USER#42\u0000ORDER#2024-05-01#991' });
  });

  it('converts an S date-time TTL', () => {
    const line =
      '{"user_id":{"S":"1"},"date":{"S":"d"},"order_id":{"S":"2"},"amount":{"N":"3"},"expires":{"S":"2030-01-02T05:04:05+02:00"}}';
    expect(dynamoJson(ORDERS, line)).toMatchObject({ ok: true, item: { expires: { N: String(EXPIRES) } } });
  });

  it.each([
    [
      'a placeholder reads a BOOL',
      '{"user_id":{"BOOL":true},"date":{"S":"d"},"order_id":{"S":"2"},"amount":{"N":"3"}}',
      'attribute "PK": column "user_id" holds BOOL',
    ],
    [
      'a placeholder reads a string set',
      '{"user_id":{"SS":["a"]},"date":{"S":"d"},"order_id":{"S":"2"},"amount":{"N":"3"}}',
      'column "user_id" holds SS',
    ],
    [
      'a TTL is a list',
      '{"user_id":{"S":"1"},"date":{"S":"d"},"order_id":{"S":"2"},"amount":{"N":"3"},"expires":{"L":[]}}',
      'attribute "expires": a TTL is a date-time string or a number of epoch seconds, got L',
    ],
  ])('fails when %s', (_, line, reason) => {
    expect(dynamoJson(ORDERS, line)).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });
});

describe('JSON Lines exclude', () => {
  it('keeps an attribute named __proto__ as an attribute when it copies the item', () => {
    const schema: RecordSchema = {
      columns: [],
      keys: [{ name: 'id', type: 'S', role: 'HASH' }],
      types: {},
      exclude: ['drop'],
    };
    const mapped = jsonl(schema, '{"id":"a","drop":1,"__proto__":"kept"}');
    expect(mapped.ok && Object.hasOwn(mapped.item, '__proto__') && mapped.item['__proto__']).toEqual({ S: 'kept' });
    expect(mapped.ok && Object.keys(mapped.item).sort()).toEqual(['__proto__', 'id']);
  });
});

describe('JSON Lines with a computed binary key', () => {
  it("decodes the rendered base64, and does not read the record's own field of the key's name as a key", () => {
    const schema: RecordSchema = {
      columns: [],
      keys: [{ name: 'id', type: 'B', role: 'HASH' }],
      types: {},
      attributes: { id: '{raw}' },
    };
    const mapped = jsonl(schema, '{"id":"not base64!","raw":"AQID"}');
    expect(mapped).toEqual({ ok: true, item: { id: { B: Buffer.from([1, 2, 3]) }, raw: { S: 'AQID' } }, key: 'AQID' });
  });
});
