import { describe, expect, it } from 'vitest';
import { CHUNK_LAYOUTS } from '../../../lambdas/chunk-layouts/chunk-layouts.js';
import { chunkLayoutOf } from '../../../lambdas/contract/format-traits.js';
import { FORMAT_TRAITS } from '../../../lambdas/contract/format-traits.js';
import { importChunk } from '../../../lambdas/chunk-layouts/chunk-importer.js';
import { importParquetChunk } from '../../../lambdas/chunk-layouts/parquet-chunk-importer.js';
import { RECORD_PLANNER } from '../../../lambdas/chunk-layouts/record-layout.js';
import { ROW_GROUP_PLANNER } from '../../../lambdas/chunk-layouts/row-group-layout.js';

describe('chunkLayoutOf', () => {
  // Every built-in format names a layout the built-in table holds: text formats records, Parquet row groups.
  it.each(Object.entries(FORMAT_TRAITS))('finds the layout %s names', (_type, traits) => {
    const entry = chunkLayoutOf(traits, CHUNK_LAYOUTS);
    const [planner, importer] =
      traits.layout === 'row-groups' ? [ROW_GROUP_PLANNER, importParquetChunk] : [RECORD_PLANNER, importChunk];
    expect(entry).toMatchObject({ planner, importer });
  });

  it('fails when the table lacks the layout: one line naming the format, its layout and the layouts there are', () => {
    const toy = { title: 'toy fixed-width', layout: 'fixed-width' };
    expect(() => chunkLayoutOf(toy, CHUNK_LAYOUTS)).toThrow(
      'invalid request: format.type: toy fixed-width objects are cut by chunk layout "fixed-width", which is not one of records, row-groups',
    );
  });

  // A name an object inherits (toString) is no layout: the table's own entries only.
  it('fails when the layout is a name every object inherits', () => {
    expect(() => chunkLayoutOf({ title: 'odd', layout: 'toString' }, CHUNK_LAYOUTS)).toThrow(/not one of records/);
  });
});
