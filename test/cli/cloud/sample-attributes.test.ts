import { describe, expect, it } from 'vitest';
import { measureSample } from '../../../cli/cloud/source/sample.js';
import { resolveImportRequest } from '../../../lambdas/request/resolve-request.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';

const KEYS: KeyAttribute[] = [
  { name: 'PK', type: 'S', role: 'HASH' },
  { name: 'SK', type: 'S', role: 'RANGE' },
];
const ATTRS = { attributes: { PK: 'USER#{u}', SK: 'O#{o}' }, exclude: ['u', 'o'] };
const request = (key: string, fields: object = ATTRS) =>
  resolveImportRequest({ bucket: 'b', key, table: 't', ...fields });

describe('estimate measures items as the import makes them', () => {
  it.each([
    ['CSV', 'x.csv', 'u,o,v\n1,2,abc\n'],
    ['JSON Lines', 'x.jsonl', '{"u":1,"o":"2","v":"abc"}\n'],
  ])('sizes %s items with their computed keys and without the excluded columns', async (_, key, text) => {
    const figures = await measureSample(Buffer.from(text), true, request(key), KEYS);
    // PK "USER#1": 2 + 6 bytes, SK "O#2": 2 + 3, v "abc": 1 + 3 = 17 bytes.
    expect(figures).toMatchObject({ rows: 1, rejected: 0, averageItemBytes: 17 });
  });

  it('fails when a template names a column the sample lacks, as preflight would', async () => {
    const bad = request('x.csv', { attributes: { PK: '{user}', SK: '{o}' } });
    await expect(measureSample(Buffer.from('u,o\n1,2\n'), true, bad, KEYS)).rejects.toThrow(
      'attributes.PK: {user} is not among the columns [u, o]',
    );
  });
});
