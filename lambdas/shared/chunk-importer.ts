import { csvParseOptions, isBlankRecord, parseRecords, type RawRecord } from './csv-records.js';
import { RecordScanner, scannerDialect } from './record-scanner.js';
import type { RejectedRow } from './rejects.js';
import { createRowMapper, type Item } from './row-mapper.js';
import type { Checkpoint, Chunk, ChunkProgress, ImportJob } from './workflow.js';

/** Records are parsed in blocks of about this many bytes: one csv-parse call amortised over ~10k rows. */
const BLOCK_BYTES = 256 * 1024;
/**
 * A record longer than this cannot be a 400 KB item (its values alone would exceed it even with every
 * character an escaped quote), so its bytes are not kept in memory: it is rejected by byte range.
 */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/** Where items go: the BatchWriter, or anything with its shape. */
export interface ItemSink {
  add(item: Item, key: string): Promise<void>;
  flush(): Promise<void>;
  readonly written: number;
}

export interface ImportChunkParams {
  readonly job: ImportJob;
  readonly chunk: Chunk;
  /** Where this invocation starts: the chunk start, or the checkpoint of the previous one. */
  readonly from: Checkpoint;
  /** Streams bytes [start, end) of the object. */
  readonly read: (start: number, end: number) => AsyncIterable<Buffer>;
  readonly sink: ItemSink;
  /** Asked after each block: true when the invocation should stop at a checkpoint now. */
  readonly shouldStop: () => boolean;
}

export interface ImportChunkResult extends Omit<ChunkProgress, 'written'> {
  readonly rejects: RejectedRow[];
}

/**
 * Imports records [from, chunk.end): splits the stream into records with the quote-aware scanner (exact
 * byte offsets and lines), parses blocks of them with csv-parse, maps rows to items and hands them to the
 * sink. Before its deadline it stops after a block, drains the sink, and returns the checkpoint of the
 * first record not yet handled: every record before it is written or rejected.
 */
export async function importChunk(params: ImportChunkParams): Promise<ImportChunkResult> {
  const { job, chunk, from, read, sink, shouldStop } = params;
  const format = job.request.format;
  const mapRow = createRowMapper({ columns: job.columns, types: job.request.types, keys: job.keys });
  const parseOptions = csvParseOptions(format);
  const scanner = new RecordScanner(scannerDialect(format));
  const rejects: RejectedRow[] = [];
  let rows = 0;
  let block: RawRecord[] = [];
  let blockBytes = 0;
  let record = { offset: from.offset, line: from.line, parts: [] as Buffer[], length: 0 };

  const takeRecord = (tail: Buffer): void => {
    const length = record.length + tail.length;
    const raw = length > MAX_RECORD_BYTES ? null : record.parts.length ? Buffer.concat([...record.parts, tail]) : tail;
    if (raw === null) {
      rows++;
      rejects.push({ line: record.line, offset: record.offset, length, raw: null, reason: `record is ${length} bytes, too large for a 400 KB item` });
    } else if (!isBlankRecord(raw)) {
      block.push({ raw, offset: record.offset, line: record.line });
      blockBytes += raw.length;
    }
    record = { offset: record.offset + length, line: from.line + scanner.lines, parts: [], length: 0 };
  };

  const handleBlock = async (): Promise<void> => {
    for (const parsed of parseRecords(block, parseOptions)) {
      rows++;
      const { offset, line, raw } = parsed.record;
      const mapped = 'error' in parsed ? { ok: false as const, reason: parsed.error } : mapRow(parsed.fields);
      if (mapped.ok) await sink.add(mapped.item, mapped.key);
      else rejects.push({ line, offset, raw, length: raw.length, reason: mapped.reason });
    }
    block = [];
    blockBytes = 0;
  };

  const progress = (next: Checkpoint | null) => ({ next, rows, rejected: rejects.length, rejects });

  for await (const buf of read(from.offset, chunk.end)) {
    scanner.feed(buf);
    let pos = 0;
    for (let end = scanner.next(); end !== -1; end = scanner.next()) {
      takeRecord(buf.subarray(pos, end));
      pos = end;
      if (blockBytes >= BLOCK_BYTES) {
        await handleBlock();
        if (shouldStop() && record.offset < chunk.end) {
          await sink.flush();
          return progress({ offset: record.offset, line: record.line });
        }
      }
    }
    const rest = buf.subarray(pos);
    record.length += rest.length;
    if (record.length <= MAX_RECORD_BYTES) record.parts.push(rest);
    else record.parts = [];
  }
  if (record.length > 0) takeRecord(Buffer.alloc(0)); // the last record of the object may lack a newline
  await handleBlock();
  await sink.flush();
  return progress(null);
}
