import { describe, expect, it } from 'vitest';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import { MAX_SET_PER_UPDATE } from '../../../lambdas/write/item-requests.js';
import { MAX_STATEMENT_BYTES, insertStatement, updateStatement } from '../../../lambdas/write/partiql-statements.js';

const KEYS: KeyAttribute[] = [
  { name: 'pk', type: 'S', role: 'HASH' },
  { name: 'sk', type: 'N', role: 'RANGE' },
];

describe('PartiQL statements of insert and update', () => {
  it('names every attribute once, quoted, and passes every value as a parameter in order', () => {
    const item = { pk: { S: 'p' }, sk: { N: '1' }, "it's": { S: 'a' }, 'say "hi"': { N: '2' } };
    expect(insertStatement('my.table-1', item)).toEqual({
      Statement: `INSERT INTO "my.table-1" VALUE {'pk': ?, 'sk': ?, 'it''s': ?, 'say "hi"': ?}`,
      Parameters: [{ S: 'p' }, { N: '1' }, { S: 'a' }, { N: '2' }],
    });
    expect(updateStatement('t', item, KEYS)).toEqual({
      Statement: `UPDATE "t" SET "it's" = ?, "say ""hi""" = ? WHERE "pk" = ? AND "sk" = ?`,
      Parameters: [{ S: 'a' }, { N: '2' }, { S: 'p' }, { N: '1' }],
    });
  });

  it('has no UPDATE for an item of key attributes only, names holding # or :, or too many assignments', () => {
    const key = { pk: { S: 'p' }, sk: { N: '1' } };
    expect(updateStatement('t', key, KEYS)).toBeUndefined();
    expect(updateStatement('t', { ...key, '#x': { S: 'v' } }, KEYS)).toBeUndefined();
    expect(updateStatement('t', { ...key, 'a:b': { S: 'v' } }, KEYS)).toBeUndefined();
    const many = Object.fromEntries(Array.from({ length: MAX_SET_PER_UPDATE + 1 }, (_, i) => [`a${i}`, { S: 'v' }]));
    expect(updateStatement('t', { ...key, ...many }, KEYS)).toBeUndefined();
    expect(insertStatement('t', { ...key, '#x': { S: 'v' } })).toBeDefined();
  });

  it('has no statement longer than 8192 bytes, counting multi-byte names in bytes', () => {
    const key = { pk: { S: 'p' }, sk: { N: '1' } };
    // `INSERT INTO "t" VALUE {'pk': ?, 'sk': ?, '` + name + `': ?}`: 45 bytes around the name.
    const around = insertStatement('t', { ...key, x: { S: 'v' } })!.Statement!.length - 1;
    const fitting = 'n'.repeat(MAX_STATEMENT_BYTES - around);
    expect(Buffer.byteLength(insertStatement('t', { ...key, [fitting]: { S: 'v' } })!.Statement!)).toBe(8192);
    expect(insertStatement('t', { ...key, [`${fitting}n`]: { S: 'v' } })).toBeUndefined();
    // The same length in characters, but 'é' takes 2 bytes: over the limit.
    expect(insertStatement('t', { ...key, [`é${fitting.slice(1)}`]: { S: 'v' } })).toBeUndefined();
  });
});
