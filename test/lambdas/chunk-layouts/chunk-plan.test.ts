import { describe, expect, it } from 'vitest';
import { heldCheckpoint, planChunk, rejectsKey } from '../../../lambdas/chunk-layouts/chunk-plan.js';
import { BUILT_IN_TABLES } from '../../../lambdas/chunk-layouts/chunk-layouts.js';
import { resolveImportRequest } from '../../../lambdas/request/resolve-request.js';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';
import type { Chunk, ChunkProgress, ImportJob, SourceEntry } from '../../../lambdas/contract/workflow-payloads.js';

const FOLDER = 'rejects/run-1';
const ETAG = '"e1"';

function job(objects: SourceEntry[], request: Partial<ImportRequest> = {}, staging: string | null = null): ImportJob {
  return {
    request: resolveImportRequest({ bucket: 'b', key: `in/${objects[0].key}`, table: 't', ...request }),
    executionName: 'run-1',
    etag: ETAG,
    sources: { folder: 'in/', objects, staging, exportManifest: null },
    columns: [],
    keys: [{ name: 'pk', type: 'S', role: 'HASH' }],
    maxConcurrency: 4,
    chunkCount: 4,
    dataBytes: 1000,
  };
}

const plain = job([{ key: 'data.csv', size: 1000, etag: ETAG }]);
const plan = (j: ImportJob, chunk: Chunk, progress?: Partial<ChunkProgress>, chunkIndex = 2) =>
  planChunk(
    { job: j, chunk, chunkIndex, ...(progress ? { progress: progress as ChunkProgress } : {}) },
    'rejects',
    BUILT_IN_TABLES,
  );

describe('planChunk', () => {
  // A byte range after the first: it finds its first record, numbers lines from it and reads past its end.
  it('plans a plain byte range to find its first record and finish its last one past its end', () => {
    const p = plan(plain, { object: 0, start: 400, end: 700 });
    expect(p).toMatchObject({
      layout: 'records',
      key: 'in/data.csv',
      where: 's3://b/in/data.csv',
      compression: 'none',
      source: { kind: 'ranges', object: { bucket: 'b', key: 'in/data.csv', etag: ETAG } },
      readEnd: { kind: 'last-record-past-end', end: 700, size: 1000 },
      start: { kind: 'first-record-from', offset: 400 },
      lines: 'relative',
    });
    expect(rejectsKey(p, { offset: 412, line: 1 })).toBe(`${FOLDER}/relative/2-412.csv`);
  });

  // The first chunk starts on the data's first record: preflight knows its line.
  it('starts a chunk with a line at its start, lines absolute', () => {
    const p = plan(plain, { object: 0, start: 10, end: 400, line: 2 });
    expect(p.start).toEqual({ kind: 'at', at: { offset: 10, line: 2 } });
    expect(p.lines).toBe('absolute');
    expect(rejectsKey(p, { offset: 10, line: 2 })).toBe(`${FOLDER}/10.csv`);
  });

  it('resumes at the checkpoint of the last invocation', () => {
    const p = plan(plain, { object: 0, start: 400, end: 700 }, { next: { offset: 530, line: 9 } });
    expect(p.start).toEqual({ kind: 'at', at: { offset: 530, line: 9 } });
    expect(heldCheckpoint(p)).toEqual({ offset: 530, line: 9 });
  });

  // Paused before it read a byte, a byte range holds its start, which need not be a record boundary: searched again.
  it('searches again from a byte range start held while paused', () => {
    const p = plan(plain, { object: 0, start: 400, end: 700 }, { next: { offset: 400, line: 1 } });
    expect(p.start).toEqual({ kind: 'first-record-from', offset: 400 });
    expect(heldCheckpoint(p)).toEqual({ offset: 400, line: 1 });
  });

  it('reads a staged piece by its own key, without an ETag, to the chunk end', () => {
    const staged = job([{ key: 'big.csv.gz', size: 5000, etag: ETAG, staged: true }], {}, 'staging/run-1');
    const p = plan(staged, { object: 0, start: 800, end: 1600, line: 40 });
    expect(p.source).toEqual({ kind: 'staged-piece', piece: { bucket: 'b', key: 'staging/run-1/0-800', etag: '' } });
    expect(p.readEnd).toEqual({ kind: 'chunk-end', end: 1600 });
    expect(p.compression).toBe('gzip');
  });

  // Its decompressed size is unknown: the plan says "to the end of the data", not a made-up end offset.
  it('reads a compressed object whole, decompressed to the end of its data', () => {
    const gz = job([{ key: 'small.csv.gz', size: 300, etag: ETAG }]);
    const p = plan(gz, { object: 0, start: 10, end: 310, line: 2 });
    expect(p.source).toEqual({
      kind: 'decompressed',
      object: { bucket: 'b', key: 'in/small.csv.gz', etag: ETAG },
      compression: 'gzip',
    });
    expect(p.readEnd).toEqual({ kind: 'data-end' });
  });

  // A Parquet checkpoint inside a row group keeps the group's offset: the row number tells invocations apart.
  it('plans Parquet row groups to the chunk end, the rejects named by offset and row', () => {
    const parquet = job([{ key: 'rows.parquet', size: 9000, etag: ETAG }]);
    const p = plan(parquet, { object: 0, start: 4, end: 5000, line: 1 });
    expect(p.layout).toBe('row-groups');
    expect(p.readEnd).toEqual({ kind: 'chunk-end', end: 5000 });
    expect(rejectsKey(p, { offset: 4, line: 301 })).toBe(`${FOLDER}/4-301.csv`);
  });

  // Offsets repeat across objects: the object's index joins the name.
  it('names rejects by object index when the import reads several objects', () => {
    const two = job([
      { key: 'a.csv', size: 100, etag: ETAG },
      { key: 'b.csv', size: 100, etag: '"e2"' },
    ]);
    const p = plan(two, { object: 1, start: 10, end: 100, line: 2 });
    expect(p.source).toMatchObject({ object: { key: 'in/b.csv', etag: '"e2"' } });
    expect(rejectsKey(p, { offset: 10, line: 2 })).toBe(`${FOLDER}/1-10.csv`);
  });
});
