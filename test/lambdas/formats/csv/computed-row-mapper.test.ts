import { describe, expect, it } from 'vitest';
import { csvRecordFormat } from '../../../../lambdas/formats/csv/csv-format.js';
import type { MappedRecord, RecordSchema } from '../../../../lambdas/formats/record-format.js';
import type { KeyAttribute } from '../../../../lambdas/contract/workflow-payloads.js';

const PK: KeyAttribute = { name: 'PK', type: 'S', role: 'HASH' };
const SK: KeyAttribute = { name: 'SK', type: 'S', role: 'RANGE' };
const COLUMNS = ['user_id', 'date', 'order_id', 'amount', 'expires'];
const ORDERS: Omit<RecordSchema, 'types'> = {
  columns: COLUMNS,
  keys: [PK, SK],
  attributes: { PK: 'USER#{user_id}', SK: 'ORDER#{date}#{order_id}', entity: 'Order', GSI1SK: '{amount}' },
  exclude: ['user_id', 'order_id'],
};

/** Maps CSV lines (no header: the columns are given) through the CSV format's own mapper. */
function mapLines(schema: RecordSchema, ...lines: string[]): MappedRecord[] {
  const format = csvRecordFormat({
    type: 'csv',
    delimiter: ',',
    header: false,
    quote: '"',
    columns: [...schema.columns],
  });
  return format.createMapper(schema)(
    lines.map((line, i) => ({ raw: Buffer.from(`${line}\n`), offset: i * 100, line: i + 1 })),
  );
}

describe.each<{ name: string; schema: RecordSchema; line: string; expected: MappedRecord }>([
  // The single-table keys: columns folded into PK and SK are not stored; a constant; a typed copy.
  {
    name: 'keys, a constant and a typed copy, the key columns excluded',
    schema: { ...ORDERS, types: { GSI1SK: 'N', amount: 'N', expires: 'TTL' } },
    line: '42,2024-05-01,991,1.50,2030-01-02T03:04:05Z',
    expected: {
      ok: true,
      item: {
        date: { S: '2024-05-01' },
        amount: { N: '1.50' },
        expires: { N: '1893553445' },
        PK: { S: 'USER#42' },
        SK: { S: 'ORDER#2024-05-01#991' },
        entity: { S: 'Order' },
        GSI1SK: { N: '1.50' },
      },
      key: 'USER#42\u0000ORDER#2024-05-01#991',
    },
  },
  // A computed attribute overrides the column of its name; it is typed by `types` like a column.
  {
    name: 'a computed attribute named like a column',
    schema: {
      columns: ['id', 'amount'],
      keys: [{ name: 'id', type: 'S', role: 'HASH' }],
      types: { amount: 'N' },
      attributes: { amount: '{amount}00' },
    },
    line: 'a,7',
    expected: { ok: true, item: { id: { S: 'a' }, amount: { N: '700' } }, key: 'a' },
  },
  // exclude alone: the column is dropped, nothing else changes.
  {
    name: 'exclude without attributes',
    schema: {
      columns: ['id', 'secret'],
      keys: [{ name: 'id', type: 'S', role: 'HASH' }],
      types: {},
      exclude: ['secret'],
    },
    line: 'a,hunter2',
    expected: { ok: true, item: { id: { S: 'a' } }, key: 'a' },
  },
  // A number key computed from text takes the table's N type; its canonical form is the de-duplication key.
  {
    name: 'a computed N key',
    schema: {
      columns: ['y', 'm'],
      keys: [{ name: 'ym', type: 'N', role: 'HASH' }],
      types: {},
      attributes: { ym: '{y}{m}' },
    },
    line: '2024,05',
    expected: { ok: true, item: { y: { S: '2024' }, m: { S: '05' }, ym: { N: '202405' } }, key: '202405e0' },
  },
])('the CSV mapper with computed attributes: $name', ({ schema, line, expected }) => {
  it('makes the item', () => {
    expect(mapLines(schema, line)).toEqual([expected]);
  });
});

describe.each([
  {
    problem: 'a placeholder column is empty',
    line: ',2024-05-01,991,1,',
    reason: 'attribute "PK": column "user_id" is empty',
  },
  {
    problem: 'the second placeholder of a key is empty',
    line: '42,2024-05-01,,1,',
    reason: 'attribute "SK": column "order_id" is empty',
  },
  {
    problem: 'a typed computed attribute is not a number',
    line: '42,2024-05-01,991,abc,',
    reason: 'attribute "GSI1SK": not a number: "abc"',
  },
  {
    problem: 'a TTL column is not a date-time',
    line: '42,2024-05-01,991,1,tomorrow',
    reason: 'column "expires": not a TTL',
  },
  {
    problem: 'a TTL column has no zone',
    line: '42,2024-05-01,991,1,2030-01-02T03:04:05',
    reason: 'column "expires": not a TTL',
  },
  { problem: 'a field is missing', line: '42,2024-05-01,991,1', reason: 'expected 5 fields, got 4' },
])('the CSV mapper with computed attributes', ({ problem, line, reason }) => {
  it(`fails when ${problem}`, () => {
    const [mapped] = mapLines({ ...ORDERS, types: { GSI1SK: 'N', expires: 'TTL' } }, line);
    expect(mapped).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });
});

describe('the CSV mapper with computed attributes', () => {
  it('keeps the plain mapper when the request has neither attributes nor exclude', () => {
    const plain = mapLines({ columns: ['id', 'v'], keys: [{ name: 'id', type: 'S', role: 'HASH' }], types: {} }, 'a,');
    expect(plain).toEqual([{ ok: true, item: { id: { S: 'a' } }, key: 'a' }]);
  });

  it('de-duplicates on the computed key: two rows with one PK and SK have one key text', () => {
    const [a, b] = mapLines({ ...ORDERS, types: {} }, '42,d,1,5,', '42,d,1,6,');
    expect(a.ok && b.ok && a.key === b.key).toBe(true);
  });
});
