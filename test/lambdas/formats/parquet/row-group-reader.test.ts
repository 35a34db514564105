import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readParquetFooter } from '../../../../lambdas/formats/parquet/parquet-footer.js';
import { readerMetadata, readRowGroup } from '../../../../lambdas/formats/parquet/row-group-reader.js';

const file = readFileSync(join(import.meta.dirname, '../../../fixtures/parquet/row-groups.parquet'));
const reads: [number, number][] = [];
const fetch = async (start: number, end: number) => (reads.push([start, end]), file.subarray(start, end));

describe('readRowGroup', () => {
  it('reads a row group with one fetch of its bytes, in slices, from a row inside it', async () => {
    const { metadata, rowGroups } = await readParquetFooter(fetch, file.length, 'row-groups.parquet');
    const group = rowGroups[2]; // rows 80-119 (0-based) of 1200, 40 to a group
    reads.length = 0;
    const slices = [];
    // From row 85 (the 6th of the group) in slices of at most 7 rows: 85, 92, ..., 113 (35 rows).
    for await (const slice of readRowGroup(fetch, file.length, readerMetadata(metadata), group, 85, 'x', 7)) {
      slices.push(slice);
    }
    expect(reads).toEqual([[group.start, group.end]]);
    expect(slices.map((s) => [s.firstRow, s.rows.length])).toEqual([
      [85, 7],
      [92, 7],
      [99, 7],
      [106, 7],
      [113, 7],
    ]);
    // The script names row i k<i padded to 5>, with n = 7 i.
    const rows = slices.flatMap((s) => s.rows);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 35 }, (_, i) => `k${String(85 + i).padStart(5, '0')}`));
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 35 }, (_, i) => BigInt(7 * (85 + i))));
  });
});
