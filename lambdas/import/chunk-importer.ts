import { isBlankRecord } from '../formats/csv/csv-records.js';
import type { RawRecord } from '../formats/record-format.js';
import { createRecordFormat } from '../formats/record-formats.js';
import { RecordScanner } from '../source/record-scanner.js';
import type { RejectedRow } from './rejects.js';
import type { ItemSink } from '../write/item-sink.js';
import type { Checkpoint, Chunk, ChunkProgress, ImportJob } from '../contract/workflow-payloads.js';

/**
 * Records are mapped in blocks of about this many bytes (~2k 1-gram rows per csv-parse call). Mapping a
 * block is one synchronous stretch in which no reply is handled and no request sent: at 256 KB it outlasted
 * a reply (~35 ms locally), so all 16 requests came back and the table sat idle at every block
 * (25 gaps, 0.5-0.8 s idle in a 200k-row local run, seen through a logging proxy); at 64 KB, ~20 ms in all.
 */
const BLOCK_BYTES = 64 * 1024;
/**
 * The first block of an invocation is this small, and each next one twice the last up to BLOCK_BYTES:
 * the first write waits for one block to be parsed and mapped (~2k rows at full size, time in which the
 * table gets nothing), while later blocks are mapped with requests already in flight.
 */
const FIRST_BLOCK_BYTES = 16 * 1024;
/**
 * A record longer than this cannot be a 400 KB item (its values alone would exceed it even with every
 * character an escaped quote), so its bytes are not kept in memory: it is rejected by byte range.
 */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;
/**
 * Records handled between deadline checks inside a block: one BatchWriteItem request's worth, so after
 * the deadline at most one more batch is handed to the writer (the stop margin counts on it). A check is
 * a clock read, ~4,000 a second at 100k rows/s.
 */
const STOP_CHECK_RECORDS = 25;

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
 * Imports records [from, chunk.end): splits the stream into records with the format's scanner dialect
 * (exact byte offsets and lines), maps blocks of them to items with the format's mapper and hands the
 * items to the sink. Past its deadline (checked every 25 records) it stops, drains the sink, and returns the
 * checkpoint of the first record not yet handled: every record before it is written or rejected.
 */
export async function importChunk(params: ImportChunkParams): Promise<ImportChunkResult> {
  const { job, chunk, from, read, sink, shouldStop } = params;
  const format = createRecordFormat(job.request.format);
  const mapBlock = format.createMapper({ columns: job.columns, types: job.request.types, keys: job.keys });
  const scanner = new RecordScanner(format.dialect);
  const rejects: RejectedRow[] = [];
  let rows = 0;
  let block: RawRecord[] = [];
  let blockBytes = 0;
  let blockLimit = FIRST_BLOCK_BYTES;
  let record = { offset: from.offset, line: from.line, parts: [] as Buffer[], length: 0 };

  /** Handles the block in file order; returns the first record left unhandled when told to stop. */
  const handleBlock = async (): Promise<Checkpoint | null> => {
    const records = block;
    const mapped = mapBlock(records);
    block = [];
    blockBytes = 0;
    blockLimit = Math.min(BLOCK_BYTES, blockLimit * 2);
    for (let i = 0; i < records.length; i++) {
      if (i > 0 && i % STOP_CHECK_RECORDS === 0 && shouldStop()) return records[i];
      rows++;
      const { offset, line, raw } = records[i];
      const result = mapped[i];
      if (result.ok) {
        const queued = sink.add(result.item, result.key);
        if (queued) await queued;
      } else rejects.push({ line, offset, raw, length: raw.length, reason: result.reason });
    }
    return null;
  };

  /** Ends the current record with `tail`; returns a checkpoint when the invocation must stop. */
  const takeRecord = async (tail: Buffer): Promise<Checkpoint | null> => {
    const length = record.length + tail.length;
    const { offset, line } = record;
    const raw = length > MAX_RECORD_BYTES ? null : record.parts.length ? Buffer.concat([...record.parts, tail]) : tail;
    record = { offset: offset + length, line: from.line + scanner.lines, parts: [], length: 0 };
    if (raw === null) {
      const stoppedAt = await handleBlock(); // earlier records first: rejects and checkpoints keep file order
      if (stoppedAt) return stoppedAt;
      rows++;
      rejects.push({
        line,
        offset,
        length,
        raw: null,
        reason: `record is ${length} bytes, too large for a 400 KB item`,
      });
    } else if (!isBlankRecord(raw)) {
      block.push({ raw, offset, line });
      blockBytes += raw.length;
    }
    if (blockBytes < blockLimit) return null;
    return (await handleBlock()) ?? (shouldStop() && record.offset < chunk.end ? record : null);
  };

  const finish = async (next: Checkpoint | null) => {
    await sink.flush();
    return { next: next && { offset: next.offset, line: next.line }, rows, rejected: rejects.length, rejects };
  };

  for await (const buf of read(from.offset, chunk.end)) {
    scanner.feed(buf);
    let pos = 0;
    for (let end = scanner.next(); end !== -1; end = scanner.next()) {
      const stoppedAt = await takeRecord(buf.subarray(pos, end));
      if (stoppedAt) return finish(stoppedAt);
      pos = end;
    }
    const rest = buf.subarray(pos);
    record.length += rest.length;
    if (record.length <= MAX_RECORD_BYTES) record.parts.push(rest);
    else record.parts = [];
  }
  if (record.length > 0) {
    const stoppedAt = await takeRecord(Buffer.alloc(0)); // the last record of the object may lack a newline
    if (stoppedAt) return finish(stoppedAt);
  }
  return finish(await handleBlock());
}
