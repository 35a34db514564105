import { describe, expect, it } from 'vitest';
import { MAX_CHUNKS } from '../../../lambdas/contract/limits.js';
import { checkStateSize } from '../../../lambdas/preflight/state-size.js';
import { resolveImportRequest } from '../../../lambdas/request/resolve-request.js';
import type { PlanningState, SourceEntry } from '../../../lambdas/contract/workflow-payloads.js';
import {
  MAX_PLANNING_STATE_BYTES,
  MAX_SOURCES_STATE_BYTES,
  MAX_SOURCE_OBJECTS,
  STATE_PAYLOAD_LIMIT_BYTES,
} from '../../../lambdas/contract/limits.js';

const ETAG = `"${'d41d8cd98f00b204e9800998ecf8427e'}"`;
const entry = (name: string): SourceEntry => ({ key: name, size: 12_345_678, etag: ETAG });
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** A planning state with `columns` names of `width` characters and the given objects. */
function state(columns: number, width: number, objects: SourceEntry[]): PlanningState {
  const names = Array.from({ length: columns }, (_, i) => `c${String(i).padStart(width - 1, '0')}`);
  return {
    request: resolveImportRequest({ prefix: 'imports/parts/', bucket: 'b', table: 't' }),
    executionName: '0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e',
    object: { size: 5 * 1024 ** 4, etag: ETAG },
    sources: { folder: 'imports/parts/', objects, staging: null, exportManifest: null },
    columns: names,
    keys: [{ name: names[0], type: 'S', role: 'HASH' }],
    indexes: [],
    chunkBytes: 5_497_558_139,
    dataBytes: 0,
    chunks: [],
    dataLine: 1,
    checkpoint: { object: 0, offset: 0, line: 1 },
    scanComplete: false,
    queue: { waiting: false, reason: null, waitSeconds: 0, waitedSeconds: 0 },
    lanes: {
      configured: 40,
      granted: 40,
      reason: "within half the account's 1000 unreserved Lambda concurrency (500)",
    },
  };
}

/** The most objects named like part-00000.csv.gz that fit the object list's budget. */
function mostObjects(): SourceEntry[] {
  const objects: SourceEntry[] = [];
  while (
    bytes([...objects, entry('part-00000.csv.gz')]) <= MAX_SOURCES_STATE_BYTES - 100 &&
    objects.length < MAX_SOURCE_OBJECTS
  ) {
    objects.push(entry(`part-${String(objects.length).padStart(5, '0')}.csv.gz`));
  }
  return objects;
}

describe('the workflow state at its largest (contract/limits.ts)', () => {
  it('stays under 256 KiB: 64 KiB of request and header, 40 KiB of objects, 1,000 chunks and 1,000 results', () => {
    // The widest header that passes, with the longest object list that passes.
    let columns = 1000;
    while (bytes({ ...state(columns + 100, 12, []), sources: null }) <= MAX_PLANNING_STATE_BYTES) columns += 100;
    const largest = state(columns, 12, mostObjects());
    expect(() => checkStateSize(largest)).not.toThrow();
    // Every number at its 5 TiB worst: 13-digit offsets and lines, 10-digit counts per chunk.
    const big = 5_497_558_138_880;
    const chunks = Array.from({ length: MAX_CHUNKS }, () => ({
      start: big,
      end: big,
      line: big,
      object: MAX_SOURCE_OBJECTS - 1,
    }));
    // ChunkImported's array: chunk, rows, written, rejected, skipped, deleted, writeUnits (the last: 1,000 a row).
    const count = 2_684_354_560;
    const chunkResults = Array.from({ length: MAX_CHUNKS }, (_, i) => [
      i,
      count,
      count,
      count,
      count,
      count,
      count * 1000,
    ]);
    const afterMap = { ...largest, chunks, scanComplete: true, chunkResults };
    expect(bytes(chunks[0])).toBe(77);
    expect(bytes(chunkResults[999])).toBe(74);
    expect(bytes(afterMap)).toBeLessThan(STATE_PAYLOAD_LIMIT_BYTES);
    // A plain object's byte ranges carry no line, and their results the LFs they hold last (ChunkImportedWithLines):
    // 56 B + 85 B a chunk, under the 77 B + 74 B above; the import's one dataLine sits in the 64 KiB share.
    const ranges = chunks.map(({ start, end, object }) => ({ start, end, object }));
    const withLines = chunkResults.map((r) => [...r, 5_497_558_138]);
    expect(bytes(ranges[0]) + bytes(withLines[999])).toBeLessThanOrEqual(bytes(chunks[0]) + bytes(chunkResults[999]));
    const plainAfterMap = { ...largest, dataLine: 65_537, chunks: ranges, scanComplete: true, chunkResults: withLines };
    expect(bytes(plainAfterMap)).toBeLessThan(STATE_PAYLOAD_LIMIT_BYTES);
  });

  it('fits about 455 objects named like part-00000.csv.gz (72 B an entry plus its name)', () => {
    expect(bytes([entry('part-00000.csv.gz')]) - 2).toBe(72 + 'part-00000.csv.gz'.length);
    expect(mostObjects().length).toBeGreaterThanOrEqual(450);
  });

  it('fails when the object list is too long, naming its size, the folder and what to do', () => {
    const objects = Array.from({ length: 400 }, (_, i) =>
      entry(`a-rather-long-part-file-name-${i}-c000.snappy.csv.gz`),
    );
    expect(() => checkStateSize(state(4, 8, objects))).toThrow(
      expect.objectContaining({
        name: 'InvalidRequestError',
        message: expect.stringMatching(
          /prefix: the list of its 400 objects \(keys past their common folder "imports\/parts\/", sizes, ETags\) is [\d.]+ KiB, over the 40.0 KiB .*import sub-prefixes one by one/,
        ),
      }),
    );
  });

  it('fails when the header is too wide, as before', () => {
    expect(() => checkStateSize(state(6000, 12, []))).toThrow(/header: 6000 columns .* over the 64.0 KiB/);
  });
});
