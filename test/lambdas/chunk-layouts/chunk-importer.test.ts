import { describe, expect, it } from 'vitest';
import { MAX_LOOK_BACK_BYTES } from '../../../lambdas/source/record-start.js';
import {
  MAX_RECORD_BYTES,
  importChunk as importRecords,
  type ImportChunkParams,
  type ImportChunkResult,
} from '../../../lambdas/chunk-layouts/chunk-importer.js';
import { planChunk, type ReadEnd } from '../../../lambdas/chunk-layouts/chunk-plan.js';
import { BUILT_IN_TABLES } from '../../../lambdas/chunk-layouts/chunk-layouts.js';
import { createRecordFormat } from '../../../lambdas/formats/record-formats.js';
import type { RejectedRow } from '../../../lambdas/chunk-layouts/rejects.js';
import { resolveImportRequest } from '../../../lambdas/request/resolve-request.js';
import type { Checkpoint, Chunk, ImportJob } from '../../../lambdas/contract/workflow-payloads.js';
import type { RequestFormat } from '../../../lambdas/contract/import-request.js';
import type { Item, ItemSink } from '../../../lambdas/write/item-sink.js';

/*
 * importChunk driven through its exported API only: a scripted `read` that serves bytes [start, end) of an
 * object held in memory, cut into the pieces a case chooses, and a sink that records what it is given. Every
 * expected offset and line comes from how the object is built (record after record), never from scanning it.
 */

/** One record of a test object and where it sits: its byte offset and 1-based line in the object. */
interface Placed {
  readonly raw: Buffer;
  readonly offset: number;
  readonly line: number;
}

/** An object made of a header then records; each record is placed by the byte lengths and LFs before it. */
function buildObject(header: string, records: readonly (string | Buffer)[]) {
  const placed: Placed[] = [];
  let offset = Buffer.byteLength(header);
  let line = 1 + countLfs(Buffer.from(header));
  for (const record of records) {
    const raw = Buffer.isBuffer(record) ? record : Buffer.from(record);
    placed.push({ raw, offset, line });
    offset += raw.length;
    line += countLfs(raw);
  }
  const bytes = Buffer.concat([Buffer.from(header), ...placed.map((p) => p.raw)]);
  const chunk: Chunk = { object: 0, start: Buffer.byteLength(header), end: bytes.length, line: placed[0].line };
  return { bytes, records: placed, chunk };
}

const countLfs = (bytes: Buffer) => bytes.reduce((n, byte) => n + (byte === 0x0a ? 1 : 0), 0);

/** Where each piece of a read range ends (relative to the range), in order; duplicates yield empty buffers. */
type Cuts = (range: Buffer) => number[];

/** A `read` that serves object bytes [start, end) as the pieces `cuts` chooses, and records each call. */
function scriptedRead(object: Buffer, cuts: Cuts = () => []) {
  const calls: [number, number][] = [];
  async function* read(start: number, end: number): AsyncIterable<Buffer> {
    calls.push([start, end]);
    const range = object.subarray(start, end);
    let from = 0;
    for (const cut of [...cuts(range), range.length]) {
      yield Buffer.from(range.subarray(from, cut)); // a copy, as a socket gives: nothing shares the object
      from = cut;
    }
  }
  return { read, calls };
}

/** A sink that records the items, in order, and every call; `pending` makes `add` return a promise. */
function recordingSink(pending = false) {
  const added: { item: Item; key: string }[] = [];
  const events: string[] = [];
  const sink: ItemSink = {
    get written() {
      return added.length;
    },
    add(item, key) {
      added.push({ item, key });
      events.push(`add ${key}`);
      if (!pending) return undefined;
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          events.push(`settled ${key}`);
          resolve();
        }),
      );
    },
    async flush() {
      events.push('flush');
    },
  };
  return { sink, added, events };
}

/** The job every chunk of an import shares: one object, the table's key `pk` (S). */
function importJob(format: RequestFormat, columns: string[], types: Record<string, 'N'> = {}): ImportJob {
  return {
    request: resolveImportRequest({ bucket: 'bucket', key: 'data', table: 'table', format, types }),
    executionName: 'execution',
    etag: '"etag"',
    sources: { folder: '', objects: [{ key: 'data', size: 0, etag: '"etag"' }], staging: null, exportManifest: null },
    columns,
    keys: [{ name: 'pk', type: 'S', role: 'HASH' }],
    maxConcurrency: 1,
    chunkCount: 1,
    dataBytes: 0,
  };
}

/**
 * importChunk with the plan of `chunk` (planChunk's, with the read end given here): the chunk ends on a record
 * boundary, or, given the object's `size` (a plain object's byte range), reads past its end to finish its last record.
 */
function importChunk({
  chunk,
  size,
  ...params
}: Omit<ImportChunkParams, 'plan' | 'recordFormat'> & { chunk: Chunk; size?: number }) {
  const readEnd: ReadEnd =
    size === undefined ? { kind: 'chunk-end', end: chunk.end } : { kind: 'last-record-past-end', end: chunk.end, size };
  const plan = { ...planChunk({ job: params.job, chunk, chunkIndex: 0 }, 'rejects', BUILT_IN_TABLES), readEnd };
  return importRecords({ ...params, plan, recordFormat: () => createRecordFormat(params.job.request.format) });
}

const CSV_JOB = importJob({ type: 'csv' }, ['pk', 'n', 'note'], { n: 'N' });
const JSONL_JOB = importJob({ type: 'jsonl' }, []);

const never = () => false;
const start = (chunk: Chunk): Checkpoint => ({ offset: chunk.start, line: chunk.line ?? 1 });

/** The reject importChunk reports for a record: where it is, its bytes as in the file (line ending kept). */
const rejectOf = (record: Placed, reason: string): RejectedRow => ({
  line: record.line,
  offset: record.offset,
  raw: record.raw,
  length: record.raw.length,
  reason,
});

/** Cuts just past each occurrence of `byte` in the read range. */
const after = (byte: number) => (range: Buffer) => [...range.keys()].filter((i) => range[i] === byte).map((i) => i + 1);

describe.each<{ name: string; cuts: Cuts }>([
  // The baseline: the whole range in one buffer.
  { name: 'one buffer', cuts: () => [] },
  // Every record, quote, `""` escape and CRLF split across buffers in every possible place.
  { name: 'one byte per buffer', cuts: (range) => Array.from({ length: range.length - 1 }, (_, i) => i + 1) },
  // A CR ends one buffer and its LF starts the next: the record still ends at the LF, CR and all.
  { name: 'CR and LF in separate buffers', cuts: after(0x0d) },
  // Buffers that end exactly on a record's LF, including the LF inside the quoted field.
  { name: 'buffers ending at each LF', cuts: after(0x0a) },
  // Pieces of 5 bytes cut records anywhere; the repeated cut makes an empty buffer between every two pieces.
  {
    name: '5-byte pieces with an empty buffer between them',
    cuts: (range) =>
      Array.from({ length: Math.ceil(range.length / 5) - 1 }, (_, i) => [5 * (i + 1), 5 * (i + 1)]).flat(),
  },
])('importChunk reads records the same from $name', ({ cuts }) => {
  describe.each([
    {
      format: 'CSV',
      job: CSV_JOB,
      header: 'pk,n,note\n',
      records: [
        'a,1,x\n',
        'b,2,"two\nlines"\n', // a quoted LF: one record over two physical lines
        '\n', // blank: skipped, but its line is counted
        'c,3\n', // rejected: a field short
        'd,4,"say ""hi"""\r\n', // CRLF, with an escaped quote
        '\r\n', // blank with CRLF
        ',5,z\n', // rejected: empty key
        'e,6,w', // the object's last record, without a line ending
      ],
      items: [
        { index: 0, key: 'a', item: { pk: { S: 'a' }, n: { N: '1' }, note: { S: 'x' } } },
        { index: 1, key: 'b', item: { pk: { S: 'b' }, n: { N: '2' }, note: { S: 'two\nlines' } } },
        { index: 4, key: 'd', item: { pk: { S: 'd' }, n: { N: '4' }, note: { S: 'say "hi"' } } },
        { index: 7, key: 'e', item: { pk: { S: 'e' }, n: { N: '6' }, note: { S: 'w' } } },
      ],
      rejects: [
        { index: 3, reason: 'expected 3 fields, got 2' },
        { index: 6, reason: 'key attribute "pk" is empty' },
      ],
    },
    {
      format: 'JSON Lines',
      job: JSONL_JOB,
      header: '',
      records: [
        '{"pk":"a","n":1}\n',
        '\n', // blank: skipped
        '[1]\n', // rejected: not an object
        '{"n":2}\r\n', // rejected: no key
        '{"pk":"b","n":2.50}\r\n', // CRLF; the number kept as written
        '{"pk":"c"}', // the last line, without a line ending
      ],
      items: [
        { index: 0, key: 'a', item: { pk: { S: 'a' }, n: { N: '1' } } },
        { index: 4, key: 'b', item: { pk: { S: 'b' }, n: { N: '2.50' } } },
        { index: 5, key: 'c', item: { pk: { S: 'c' } } },
      ],
      rejects: [
        { index: 2, reason: 'not a JSON object: the line holds an array' },
        { index: 3, reason: 'key attribute "pk" (HASH, S) is missing' },
      ],
    },
  ])('in $format', ({ job, header, records, items, rejects }) => {
    const object = buildObject(header, records);
    const run = async () => {
      const { sink, added } = recordingSink();
      const { read } = scriptedRead(object.bytes, cuts);
      const result = await importChunk({
        job,
        chunk: object.chunk,
        from: start(object.chunk),
        read,
        sink,
        shouldStop: never,
      });
      return { result, added };
    };

    it('hands the good records to the sink in file order, as their items under their keys', async () => {
      const { added } = await run();
      expect(added).toEqual(items.map(({ item, key }) => ({ item, key })));
    });

    it('rejects the bad records in file order with their line, byte offset, length and bytes', async () => {
      const { result } = await run();
      expect(result.rejects).toEqual(rejects.map(({ index, reason }) => rejectOf(object.records[index], reason)));
    });

    it('counts every non-blank record as a row, and finishes the chunk (next is null)', async () => {
      const { result } = await run();
      expect({ next: result.next, rows: result.rows, rejected: result.rejected }).toEqual({
        next: null,
        rows: items.length + rejects.length,
        rejected: rejects.length,
      });
    });
  });
});

/** `count` CSV rows of 8-13 bytes (60 fit in one first block of 16 KiB); rows 3, 10, 17, ... are a field short. */
function manyRows(count = 60) {
  const rows = Array.from({ length: count }, (_, i) => {
    const pk = `k${String(i).padStart(4, '0')}`;
    return i % 7 === 3 ? `${pk},${i}\n` : `${pk},${i},n\n`;
  });
  return buildObject('pk,n,note\n', rows);
}

/** What one run should yield for rows [from, to) of manyRows: the good ones as keys, the short ones as rejects. */
function expected(object: ReturnType<typeof manyRows>, from: number, to: number) {
  const records = object.records.slice(from, to);
  return {
    keys: records.filter((_, i) => (from + i) % 7 !== 3).map((r) => r.raw.toString().split(',')[0]),
    rejects: records.filter((_, i) => (from + i) % 7 === 3).map((r) => rejectOf(r, 'expected 3 fields, got 2')),
  };
}

/** shouldStop answering true from its `n`th call on; counts its calls. */
function stopFromCall(n: number) {
  const stop = { calls: 0, shouldStop: () => ++stop.calls >= n };
  return stop;
}

describe('importChunk stopping at a checkpoint', () => {
  it('stops at the 26th record of a block when asked at the first check (every 25 records)', async () => {
    // 60 rows in one block: the first deadline check comes after records 0..24, so record 25 is the checkpoint.
    const object = manyRows();
    const { sink, added } = recordingSink();
    const result = await importChunk({
      job: CSV_JOB,
      chunk: object.chunk,
      from: start(object.chunk),
      read: scriptedRead(object.bytes).read,
      sink,
      shouldStop: stopFromCall(1).shouldStop,
    });
    const { offset, line } = object.records[25];
    expect(result.next).toEqual({ offset, line });
    expect({ rows: result.rows, rejected: result.rejected }).toEqual({ rows: 25, rejected: 4 }); // rows 3, 10, 17, 24
    expect(added.map((a) => a.key)).toEqual(expected(object, 0, 25).keys);
    expect(result.rejects).toEqual(expected(object, 0, 25).rejects);
  });

  it('gives the rest exactly once when resumed from its checkpoint: two invocations make one', async () => {
    const object = manyRows();
    const invoke = async (from: Checkpoint, shouldStop: () => boolean) => {
      const { sink, added } = recordingSink();
      const result = await importChunk({
        job: CSV_JOB,
        chunk: object.chunk,
        from,
        read: scriptedRead(object.bytes).read,
        sink,
        shouldStop,
      });
      return { result, added };
    };
    const whole = await invoke(start(object.chunk), never);
    const first = await invoke(start(object.chunk), stopFromCall(2).shouldStop); // stops at record 50
    const second = await invoke(first.result.next!, never);
    expect(first.result.next).toEqual({ offset: object.records[50].offset, line: object.records[50].line });
    expect([...first.added, ...second.added]).toEqual(whole.added);
    expect([...first.result.rejects, ...second.result.rejects]).toEqual(whole.result.rejects);
    expect(first.result.rows + second.result.rows).toBe(60);
    expect(first.result.rejected + second.result.rejected).toBe(whole.result.rejected);
    expect(second.result.next).toBeNull();
  });

  it('asks read for the rest of the chunk only, from the checkpoint', async () => {
    const object = manyRows();
    const from = { offset: object.records[50].offset, line: object.records[50].line };
    const { read, calls } = scriptedRead(object.bytes);
    await importChunk({ job: CSV_JOB, chunk: object.chunk, from, read, sink: recordingSink().sink, shouldStop: never });
    expect(calls).toEqual([[from.offset, object.chunk.end]]);
  });

  it('numbers lines from the checkpoint: a reject after it carries its line in the object', async () => {
    // Resuming at record 50 (line 52: the header is line 1), the short rows 52 and 59 are on lines 54 and 61.
    const object = manyRows();
    const from = { offset: object.records[50].offset, line: object.records[50].line };
    const result = await importChunk({
      job: CSV_JOB,
      chunk: object.chunk,
      from,
      read: scriptedRead(object.bytes).read,
      sink: recordingSink().sink,
      shouldStop: never,
    });
    expect(result.rejects.map((r) => [r.line, r.offset])).toEqual([
      [54, object.records[52].offset],
      [61, object.records[59].offset],
    ]);
    expect(result.rejects).toEqual(expected(object, 50, 60).rejects);
  });

  it('resumed at every check it is offered, gives each record once and only checkpoints inside the chunk', async () => {
    // 3,000 rows (~40 KB) in 1,000-byte pieces span several blocks, so both places a stop is taken are met:
    // every 25 records inside a block, and after a block.
    const object = manyRows(3000);
    const whole = recordingSink();
    await importChunk({
      job: CSV_JOB,
      chunk: object.chunk,
      from: start(object.chunk),
      read: scriptedRead(object.bytes).read,
      sink: whole.sink,
      shouldStop: never,
    });
    const pieces = (range: Buffer) => Array.from({ length: Math.floor(range.length / 1000) }, (_, i) => 1000 * (i + 1));
    const resumed = recordingSink();
    const rejects: RejectedRow[] = [];
    const checkpoints: Checkpoint[] = [];
    let rows = 0;
    let next: Checkpoint | null = start(object.chunk);
    while (next && checkpoints.length <= 3000) {
      const { read } = scriptedRead(object.bytes, pieces);
      const result: ImportChunkResult = await importChunk({
        job: CSV_JOB,
        chunk: object.chunk,
        from: next,
        read,
        sink: resumed.sink,
        shouldStop: () => true,
      });
      rows += result.rows;
      rejects.push(...result.rejects);
      next = result.next;
      if (next) checkpoints.push(next);
    }
    expect(resumed.added).toEqual(whole.added);
    expect(rejects).toEqual(expected(object, 0, 3000).rejects);
    expect(rows).toBe(3000);
    // Every checkpoint is a record's start, inside the chunk, after the one before.
    const starts = new Map(object.records.map((r) => [r.offset, r.line]));
    for (const [i, checkpoint] of checkpoints.entries()) {
      expect(starts.get(checkpoint.offset), `checkpoint ${i}`).toBe(checkpoint.line);
      expect(checkpoint.offset).toBeLessThan(object.chunk.end);
      if (i > 0) expect(checkpoint.offset).toBeGreaterThan(checkpoints[i - 1].offset);
    }
    expect(checkpoints.length).toBeGreaterThan(1);
  });

  it.each([14, 15, 16, 17, 18])(
    'never returns the chunk end as a checkpoint: a chunk of %i 1 KiB rows, stopped whenever asked',
    async (count) => {
      // Rows of exactly 1,024 bytes: the first block (16 KiB) ends at row 16, where a stop after the block is
      // asked; with 16 rows that is the chunk's end, which must read as done (null), not as a place to resume.
      const row = (i: number) => `k${String(i).padStart(4, '0')},${i},${'x'.repeat(1024 - 8 - String(i).length)}\n`;
      const object = buildObject(
        'pk,n,note\n',
        Array.from({ length: count }, (_, i) => row(i)),
      );
      expect(object.records.every((r) => r.raw.length === 1024)).toBe(true);
      const { sink, added } = recordingSink();
      let rows = 0;
      let next: Checkpoint | null = start(object.chunk);
      for (let invocation = 0; next && invocation < count; invocation++) {
        const { read } = scriptedRead(object.bytes);
        const result: ImportChunkResult = await importChunk({
          job: CSV_JOB,
          chunk: object.chunk,
          from: next,
          read,
          sink,
          shouldStop: () => true,
        });
        rows += result.rows;
        next = result.next;
        if (next) expect(next.offset).toBeLessThan(object.chunk.end);
      }
      expect(next).toBeNull();
      expect(rows).toBe(count);
      expect(added).toHaveLength(count);
    },
  );
});

describe('importChunk within its chunk', () => {
  it('reads [chunk.start, chunk.end) and hands on no record that starts at or after chunk.end', async () => {
    // The chunk is rows 10..19 of 60; rows 20.. lie past its end in the same object.
    const object = manyRows();
    const chunk: Chunk = {
      object: 0,
      start: object.records[10].offset,
      end: object.records[20].offset,
      line: object.records[10].line,
    };
    const { read, calls } = scriptedRead(object.bytes);
    const { sink, added } = recordingSink();
    const result = await importChunk({ job: CSV_JOB, chunk, from: start(chunk), read, sink, shouldStop: never });
    expect(calls).toEqual([[chunk.start, chunk.end]]);
    expect(added.map((a) => a.key)).toEqual(expected(object, 10, 20).keys);
    expect(result.rejects).toEqual(expected(object, 10, 20).rejects); // row 10 and row 17, with their lines
    expect({ rows: result.rows, next: result.next }).toEqual({ rows: 10, next: null });
  });
});

describe('importChunk on a record too large to be an item', () => {
  /** Rows around one long record of `length` bytes (LF included), read in 64 KiB pieces as S3 streams them. */
  async function importAround(length: number) {
    const long = `big,1,${'x'.repeat(length - 7)}\n`;
    const object = buildObject('pk,n,note\n', ['a,1,x\n', 'b,2\n', long, 'c,3,x\n', 'd,4\n']);
    const pieces = (range: Buffer) =>
      Array.from({ length: Math.floor(range.length / 65536) }, (_, i) => 65536 * (i + 1));
    const { sink, added } = recordingSink();
    const result = await importChunk({
      job: CSV_JOB,
      chunk: object.chunk,
      from: start(object.chunk),
      read: scriptedRead(object.bytes, pieces).read,
      sink,
      shouldStop: never,
    });
    return { object, result, added };
  }

  it('rejects a record of MAX_RECORD_BYTES + 1 by its byte range, without its bytes', async () => {
    const { object, result } = await importAround(MAX_RECORD_BYTES + 1);
    const long = object.records[2];
    expect(long.raw.length).toBe(4 * 1024 * 1024 + 1);
    expect(result.rejects[1]).toEqual({
      line: long.line,
      offset: long.offset,
      length: 4_194_305,
      raw: null,
      reason: 'record is 4194305 bytes, too large for a 400 KB item',
    });
  });

  it('keeps file order around it: the rejects before and after it, and the items after it', async () => {
    const { object, result, added } = await importAround(MAX_RECORD_BYTES + 1);
    expect(result.rejects.map((r) => r.offset)).toEqual([1, 2, 4].map((i) => object.records[i].offset));
    expect(added.map((a) => a.key)).toEqual(['a', 'c']);
    expect({ rows: result.rows, rejected: result.rejected, next: result.next }).toEqual({
      rows: 5,
      rejected: 3,
      next: null,
    });
  });

  it('maps a record of exactly MAX_RECORD_BYTES: its bytes are kept, and the mapper rejects the item', async () => {
    const { object, result } = await importAround(MAX_RECORD_BYTES);
    const long = object.records[2];
    // Buffer.equals: toEqual walks a 4 MiB buffer element by element (~20 s).
    expect(result.rejects[1].raw?.equals(long.raw)).toBe(true);
    expect(result.rejects[1]).toMatchObject({ line: long.line, offset: long.offset, length: MAX_RECORD_BYTES });
    expect(result.rejects[1].reason).toMatch(/^item is \d+ bytes, over DynamoDB's 409600-byte \(400 KB\) limit$/);
  });
});

describe('importChunk and its sink', () => {
  it('waits for the promise add returns before adding the next item', async () => {
    const object = buildObject('pk,n,note\n', ['a,1,x\n', 'b,2,x\n', 'c,3,x\n']);
    const { sink, events } = recordingSink(true);
    await importChunk({
      job: CSV_JOB,
      chunk: object.chunk,
      from: start(object.chunk),
      read: scriptedRead(object.bytes).read,
      sink,
      shouldStop: never,
    });
    expect(events).toEqual(['add a', 'settled a', 'add b', 'settled b', 'add c', 'settled c', 'flush']);
  });

  it('flushes the sink once, after the last item, before it returns a checkpoint', async () => {
    const object = manyRows();
    const { sink, events } = recordingSink();
    const result = await importChunk({
      job: CSV_JOB,
      chunk: object.chunk,
      from: start(object.chunk),
      read: scriptedRead(object.bytes).read,
      sink,
      shouldStop: stopFromCall(1).shouldStop,
    });
    expect(result.next).not.toBeNull();
    expect(events.filter((e) => e === 'flush')).toHaveLength(1);
    expect(events.at(-1)).toBe('flush');
  });
});

describe('importChunk on a byte range (a plain object: `size` given)', () => {
  /** One record of `length` bytes, `quoted` or not, between short ones; the chunk is the whole data as a range. */
  async function importLong(length: number, quoted: boolean) {
    const filler = quoted ? `"${'x'.repeat(length - 9)}"\n` : `${'x'.repeat(length - 7)}\n`; // big,1, + filler: length
    const object = buildObject('pk,n,note\n', ['a,1,x\n', `big,1,${filler}`, 'c,3,x\n']);
    const { sink } = recordingSink();
    return importChunk({
      job: CSV_JOB,
      chunk: object.chunk,
      from: start(object.chunk),
      read: scriptedRead(object.bytes, (range) => [65536, range.length - 65536]).read,
      sink,
      shouldStop: never,
      size: object.bytes.length,
    });
  }

  // Past 16 MiB a neighbour's look-back may not see a quote that opened inside this record: the import stops.
  it('fails when a record holding a quote is longer than a byte range looks back', async () => {
    await expect(importLong(MAX_LOOK_BACK_BYTES + 1, true)).rejects.toMatchObject({ name: 'RecordTooLongError' });
  });

  // Without a quote nothing in it can be quoted: every lane that started inside it was right; it is only rejected.
  it('rejects a quote-free record longer than the look-back, as any record over 4 MiB', async () => {
    const result = await importLong(MAX_LOOK_BACK_BYTES + 1, false);
    expect({ rows: result.rows, rejected: result.rejected }).toEqual({ rows: 3, rejected: 1 });
  });
});
