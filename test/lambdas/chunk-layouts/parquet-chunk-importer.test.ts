import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_TABLES } from '../../../lambdas/chunk-layouts/chunk-layouts.js';
import { planChunk } from '../../../lambdas/chunk-layouts/chunk-plan.js';
import { importParquetChunk } from '../../../lambdas/chunk-layouts/parquet-chunk-importer.js';
import type { Checkpoint, ImportJob, KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import { readParquetFooter, type RowGroupSpan } from '../../../lambdas/formats/parquet/parquet-footer.js';
import { createRecordFormat } from '../../../lambdas/formats/record-formats.js';
import { resolveImportRequest } from '../../../lambdas/request/resolve-request.js';
import type { ItemSink, RowMark } from '../../../lambdas/write/item-sink.js';

/*
 * importParquetChunk over fixture files held in memory, with a sink that records each row's place (RowMark) and, to
 * stand for a writer that halted (a pause, its deadline), reports one of them as its first unwritten row after its
 * flush. The e2e test (test/e2e/sources/parquet-pause.test.ts) runs the same through the real writer and workflow.
 */

const FIXTURES = join(import.meta.dirname, '../../fixtures/parquet');

/** A fixture, its row groups as the footer gives them, and the job of an import of it keyed by `keys`. */
async function parquetFile(name: string, keys: KeyAttribute[]) {
  const bytes = readFileSync(join(FIXTURES, name));
  const { rowGroups } = await readParquetFooter(async (s, e) => bytes.subarray(s, e), bytes.length, name);
  const job: ImportJob = {
    request: resolveImportRequest({ bucket: 'b', key: name, table: 't' }),
    executionName: 'run-1',
    etag: `"${name}"`,
    sources: {
      folder: '',
      objects: [{ key: name, size: bytes.length, etag: `"${name}"` }],
      staging: null,
      exportManifest: null,
    },
    columns: [],
    keys,
    maxConcurrency: 1,
    chunkCount: 1,
    dataBytes: bytes.length,
  };
  return { bytes, rowGroups, job };
}

/** A sink that records each row's mark; once flushed it reports the mark of row `heldAt` as its first unwritten row. */
function haltingSink(heldAt?: number) {
  const marks: RowMark[] = [];
  let heldFrom: RowMark | undefined;
  const sink: ItemSink = {
    written: 0,
    add(_item, _key, at) {
      marks.push(at!);
      return undefined;
    },
    async flush() {
      heldFrom = marks.find((mark) => mark.line === heldAt);
    },
    get heldFrom() {
      return heldFrom;
    },
  };
  return { sink, marks };
}

/** Imports the whole file as one chunk from `from` (its first row by default). */
async function importFile(file: Awaited<ReturnType<typeof parquetFile>>, sink: ItemSink, from?: Checkpoint) {
  const { bytes, rowGroups, job } = file;
  const chunk = { object: 0, start: rowGroups[0].start, end: bytes.length, line: 1 };
  const plan = planChunk({ job, chunk, chunkIndex: 0 }, 'rejects', BUILT_IN_TABLES);
  const read = async function* (start: number, end: number) {
    yield bytes.subarray(start, end);
  };
  const params = {
    job,
    plan,
    read,
    sink,
    shouldStop: () => false,
    recordFormat: () => createRecordFormat(job.request.format),
  };
  return importParquetChunk({ ...params, from: from ?? { offset: chunk.start, line: 1 } });
}

/** Row r's group: the one whose rows hold it (1-based r). */
const groupOf = (groups: readonly RowGroupSpan[], r: number) =>
  groups.find((g) => g.firstRow < r && r <= g.firstRow + g.rows)!;
/** The group's decoded bytes per row, at least 1: what a row counts toward the write window's byte bound. */
const rowBytes = (g: RowGroupSpan) => Math.max(1, Math.ceil(g.uncompressedBytes / g.rows));

const ID: KeyAttribute = { name: 'id', type: 'S', role: 'HASH' };

describe('importParquetChunk and the place of each row', () => {
  // 60 rows in row groups of 25, 25 and 10: each row's checkpoint is its group's offset and its row number.
  it('hands each row to the sink with its group offset, its row number and the rows before it', async () => {
    const file = await parquetFile('codec-none.parquet', [ID]);
    const { sink, marks } = haltingSink();
    const result = await importFile(file, sink);
    const want = Array.from({ length: 60 }, (_, i) => {
      const group = groupOf(file.rowGroups, i + 1);
      return { offset: group.start, line: i + 1, rows: i, rejected: 0, bytes: rowBytes(group) };
    });
    expect(marks).toEqual(want);
    expect(result).toMatchObject({ next: null, rows: 60, rejected: 0, lineAfter: 61 });
  });

  // Resumed at row 31 (inside the second group): its rows count from there, their row numbers stay the file's.
  it('counts the rows before each from its checkpoint when resumed inside a row group', async () => {
    const file = await parquetFile('codec-none.parquet', [ID]);
    const { sink, marks } = haltingSink();
    const result = await importFile(file, sink, { offset: groupOf(file.rowGroups, 31).start, line: 31 });
    expect(marks[0]).toMatchObject({ offset: groupOf(file.rowGroups, 31).start, line: 31, rows: 0 });
    expect(marks.map((m) => m.line)).toEqual(Array.from({ length: 30 }, (_, i) => 31 + i));
    expect(result).toMatchObject({ next: null, rows: 30, lineAfter: 61 });
  });

  it('resumes from the sink’s first unwritten row, counting only the rows before it', async () => {
    const file = await parquetFile('codec-none.parquet', [ID]);
    const { sink } = haltingSink(40);
    const result = await importFile(file, sink);
    // Row 40 is in the second group (rows 26-50): the checkpoint keeps that group's offset.
    expect(result).toMatchObject({
      next: { offset: groupOf(file.rowGroups, 40).start, line: 40 },
      rows: 39,
      rejected: 0,
      lineAfter: 40,
    });
  });

  // types.parquet: rows 4 and 5 hold NaN and Infinity, so are rejected after row 3, the last item.
  it('takes the rejects before the first unwritten row only: those after it are read, and counted, again', async () => {
    const file = await parquetFile('types.parquet', [ID, { name: 'seq', type: 'N', role: 'RANGE' }]);
    const { sink, marks } = haltingSink(3);
    const result = await importFile(file, sink);
    expect(marks.map((m) => [m.line, m.rows, m.rejected])).toEqual([
      [1, 0, 0],
      [2, 1, 0],
      [3, 2, 0],
    ]);
    expect(result).toMatchObject({ next: { offset: groupOf(file.rowGroups, 3).start, line: 3 }, rows: 2, rejected: 0 });
  });
});
