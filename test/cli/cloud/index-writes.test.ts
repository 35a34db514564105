import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { indexWriteUnits, writeUnitsOf, type IndexShape } from '../../../cli/cloud/table/index-writes.js';

describe('writeUnitsOf: one write unit per started KB', () => {
  it.each([
    [0, 1], // an item is at least one unit
    [28, 1],
    [1024, 1], // exactly 1 KB
    [1025, 2], // a byte more: 2
    [2500, 3], // 2.44 KB: 3
  ])('%i bytes take %i write units', (bytes, units) => {
    expect(writeUnitsOf(bytes)).toBe(units);
  });
});

/**
 * An item of 1,522 bytes: "id" 2 + "id-1" 4 = 6, "year" 4 + N 1990 (4/2 + 1 = 3) = 7, "region" 6 + "eu" 2 = 8,
 * "blob" 4 + 1,497 "x" = 1,501. The table is keyed by id.
 */
const ITEM: Record<string, AttributeValue> = {
  id: { S: 'id-1' },
  year: { N: '1990' },
  region: { S: 'eu' },
  blob: { S: 'x'.repeat(1497) },
};
const TABLE_KEYS = ['id'];
const index = (projection: IndexShape['projection'], keyNames = ['year']): IndexShape => ({
  name: 'byYear',
  keyNames,
  projection,
});

describe('indexWriteUnits: what one item costs in a GSI, on top of the table', () => {
  it.each<[string, IndexShape, number]>([
    // ALL: the whole 1,522-byte item: 2 units.
    ['ALL projects the whole item', index({ type: 'ALL', nonKeyAttributes: [] }), 2],
    // KEYS_ONLY: id (6) + year (7) = 13 bytes: 1 unit.
    ['KEYS_ONLY holds the table and index keys', index({ type: 'KEYS_ONLY', nonKeyAttributes: [] }), 1],
    // INCLUDE region: 13 + 8 = 21 bytes: 1 unit; INCLUDE blob: 13 + 1,501 = 1,514: 2 units.
    ['INCLUDE a small attribute', index({ type: 'INCLUDE', nonKeyAttributes: ['region'] }), 1],
    ['INCLUDE the big attribute', index({ type: 'INCLUDE', nonKeyAttributes: ['blob'] }), 2],
    // A composite index key the item lacks half of: the item is not in the (sparse) index.
    ['the item lacks an index key attribute', index({ type: 'ALL', nonKeyAttributes: [] }, ['year', 'month']), 0],
  ])('%s', (_, shape, units) => {
    expect(indexWriteUnits(ITEM, TABLE_KEYS, shape)).toBe(units);
  });
});
