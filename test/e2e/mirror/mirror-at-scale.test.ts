import { describe, expect, it } from 'vitest';
import { outOfTimeAfter } from '../../../cli/local-run/runner.js';
import { canonicalKey, MIN_PARTS, partOf } from '../../../lambdas/mirror/key-parts.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import { createBucket, createTable, putText, scanAll } from '../harness.js';
import { fillTable, runMirror } from './mirror-harness.js';

const KEYS: KeyAttribute[] = [
  { name: 'pk', type: 'S', role: 'HASH' },
  { name: 'sk', type: 'N', role: 'RANGE' },
];
/** 2,000 keys over 40 partition keys; every 20th (i % 20 === 7) leaves the file: 100 deletes, 5%. */
const N = 2000;
const keyOf = (i: number) => ({ pk: { S: `p${i % 40}` }, sk: { N: String(i) } });
const dropped = (i: number) => i % 20 === 7;
const ids = Array.from({ length: N }, (_, i) => i);

describe('a mirror across many chunks, Scan segments and key parts', () => {
  it('deletes exactly the dropped keys, with a dropped and a kept key in every part, numbers equal by value', async () => {
    const bucket = await createBucket();
    const table = await createTable(['pk', 'S'], ['sk', 'N']);
    await fillTable(
      table,
      ids.map((i) => ({ ...keyOf(i), v: { S: 'old' } })),
    );
    // Even sort keys are written as "12.0": DynamoDB holds 12, and the mirror must see one key, not two.
    const rows = ids.filter((i) => !dropped(i)).map((i) => `p${i % 40},${i % 2 === 0 ? `${i}.0` : i},new`);
    await putText(bucket, 'in/rows.csv', `pk,sk,v\n${rows.join('\n')}\n`);
    const part = (i: number) => partOf(canonicalKey(keyOf(i), KEYS), MIN_PARTS);
    // What the test stands on: the keys reach every part, dropped and kept alike.
    expect(new Set(ids.filter(dropped).map(part)).size).toBe(MIN_PARTS);
    expect(new Set(ids.filter((i) => !dropped(i)).map(part)).size).toBe(MIN_PARTS);

    const clocks = { ImportChunk: outOfTimeAfter(3), MirrorParts: outOfTimeAfter(4) };
    const { summary, chunks, importCalls } = await runMirror(
      { bucket, key: 'in/rows.csv', table, chunkMiB: 0.005 },
      { clocks, maxConcurrency: 4 },
    );
    expect(chunks.length).toBeGreaterThan(4);
    expect(importCalls.length).toBeGreaterThan(chunks.length); // chunks looped on their checkpoints
    expect(summary).toMatchObject({ rows: N - 100, written: N - 100, rejected: 0, deleted: 100 });
    expect(summary.mirror).toMatchObject({ inScope: N, notInFile: 100, deleted: 100 });

    const items = new Map((await scanAll(table)).map((item) => [`${item.pk.S}/${item.sk.N}`, item]));
    expect(items.size).toBe(N - 100);
    for (const i of ids) {
      const item = items.get(`p${i % 40}/${i}`);
      if (dropped(i)) expect(item).toBeUndefined();
      else expect(item).toEqual({ ...keyOf(i), v: { S: 'new' } });
    }
  });
});
