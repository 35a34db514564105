import { isBlankRecord } from '../formats/csv/csv-records.js';
import type { BlockMapper, RawRecord, RecordFormat } from '../formats/record-format.js';
import { RecordScanner, type ScannerDialect } from '../source/record-scanner.js';
import type { RejectedRow } from './rejects.js';
import type { ItemSink } from '../write/item-sink.js';
import type { Checkpoint, ChunkProgress, ImportJob } from '../contract/workflow-payloads.js';
import { ownRecordsEnd, rangeBytes, recordTooLong } from './byte-range.js';
import type { ChunkPlan } from './chunk-plan.js';
import { MAX_LOOK_BACK_BYTES } from '../source/record-start.js';

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
  /** The invocation's plan: the chunk, where reading ends (chunk-plan.ts ReadEnd), the object's name and size. */
  readonly plan: Pick<ChunkPlan, 'chunk' | 'readEnd' | 'where' | 'size' | 'source'>;
  /** Where this invocation starts: the chunk's first record, or the checkpoint of the previous invocation. */
  readonly from: Checkpoint;
  /** Streams bytes [start, end) of the object (chunk-reader.ts). */
  readonly read: (start: number, end: number) => AsyncIterable<Buffer>;
  /** The format's reader and mapper, made once per invocation (formats of byte records only). */
  readonly recordFormat: () => RecordFormat;
  readonly sink: ItemSink;
  /**
   * Takes each rejected row as it is found (in file order); the import waits for the promise it returns.
   * @default - the rows are kept in the result's `rejects`
   */
  readonly reject?: (row: RejectedRow) => Promise<void>;
  /** Asked after each block: true when the invocation should stop at a checkpoint now. */
  readonly shouldStop: () => boolean;
}

export interface ImportChunkResult extends Pick<ChunkProgress, 'next' | 'rows' | 'rejected' | 'lines'> {
  /** The rejected rows, when the params have no `reject` (empty otherwise). */
  readonly rejects: RejectedRow[];
  /** The line of the first record after those this invocation handled (`next.line` when it stopped). */
  readonly lineAfter: number;
}

/**
 * Imports the records that start in [from, end) (ChunkPlan.readEnd): splits the stream into records with the format's scanner dialect
 * (exact byte offsets and lines), maps blocks of them to items with the format's mapper and hands the
 * items to the sink. Past its deadline (checked every 25 records) it stops, drains the sink, and returns the
 * checkpoint of the first record not yet handled: every record before it is written or rejected.
 */
export async function importChunk(params: ImportChunkParams): Promise<ImportChunkResult> {
  const run = new ChunkRun(params);
  const { read, from, plan } = params;
  for await (const buf of rangeBytes(read, from.offset, plan.readEnd)) {
    const stoppedAt = await run.feed(buf);
    if (stoppedAt) return run.finish(stoppedAt);
    if (run.pastEnd) break; // the records from here on are the next chunk's
  }
  return run.finish(await run.end());
}

/** The record being read: where it starts, and its bytes so far (none kept past MAX_RECORD_BYTES). */
interface PendingRecord {
  readonly offset: number;
  readonly line: number;
  parts: Buffer[];
  length: number;
  /** Some byte of it, among those no longer kept, is a quote. */
  quoted?: boolean;
}

/** One invocation's pass over its range: the record being read, the block being filled, the counts. */
class ChunkRun {
  private readonly mapBlock: BlockMapper;
  private readonly scanner: RecordScanner;
  /** A record longer than this fails the chunk (byte-range.ts): neighbours' look-backs cannot see past it. */
  private readonly longestRecord: number;
  /** Records that start at or past this are the next chunk's. */
  private readonly ownEnd: number;
  private readonly dialect: ScannerDialect;
  private readonly rejects: RejectedRow[] = [];
  private rejected = 0;
  private rows = 0;
  private block: RawRecord[] = [];
  private blockBytes = 0;
  private blockLimit = FIRST_BLOCK_BYTES;
  private record: PendingRecord;
  /** The record being read starts at or past the chunk's end: it and every later one belong to the next chunk. */
  pastEnd = false;

  constructor(private readonly params: ImportChunkParams) {
    const { job, from, plan } = params;
    const format = params.recordFormat();
    const { types, attributes, exclude } = job.request;
    this.mapBlock = format.createMapper({ columns: job.columns, types, keys: job.keys, attributes, exclude });
    this.scanner = new RecordScanner(format.dialect);
    this.dialect = format.dialect;
    const byteRanges = plan.readEnd.kind === 'last-record-past-end' && format.dialect.quote !== undefined;
    this.longestRecord = byteRanges ? MAX_LOOK_BACK_BYTES : Number.POSITIVE_INFINITY;
    this.ownEnd = ownRecordsEnd(plan.readEnd);
    this.record = { offset: from.offset, line: from.line, parts: [], length: 0 };
  }

  /** Takes the records `buf` ends; keeps the partial one. Returns a checkpoint when the invocation must stop. */
  async feed(buf: Buffer): Promise<Checkpoint | null> {
    this.scanner.feed(buf);
    let pos = 0;
    for (let end = this.scanner.next(); end !== -1; end = this.scanner.next()) {
      if ((this.pastEnd = this.record.offset >= this.ownEnd)) return null;
      const stoppedAt = await this.takeRecord(buf.subarray(pos, end));
      if (stoppedAt) return stoppedAt;
      pos = end;
    }
    if ((this.pastEnd = this.record.offset >= this.ownEnd)) return null;
    const rest = buf.subarray(pos);
    this.record.length += rest.length;
    if (this.record.length <= MAX_RECORD_BYTES) this.record.parts.push(rest);
    else this.dropParts(rest);
    return null;
  }

  /** The record is too large to copy: forget its bytes, noting whether any was a quote (see longestRecord). */
  private dropParts(rest: Buffer): void {
    const { quote } = this.dialect;
    const seen = (b: Buffer) => quote !== undefined && b.includes(quote);
    this.record.quoted ||= this.record.parts.some(seen) || seen(rest);
    this.record.parts = [];
  }

  /** The range is read: takes the last record (the object's may lack a newline), then the last block. */
  async end(): Promise<Checkpoint | null> {
    const last = this.record.length > 0 && this.record.offset < this.ownEnd;
    const stoppedAt = last ? await this.takeRecord(Buffer.alloc(0)) : null;
    return stoppedAt ?? this.handleBlock();
  }

  /** Drains the sink: every record before `next` is then written or rejected. */
  async finish(stoppedAt: Checkpoint | null): Promise<ImportChunkResult> {
    const { next, rows, rejected } = await drainSink(this.params.sink, stoppedAt, {
      rows: this.rows,
      rejected: this.rejected,
    });
    const lineAfter = next ? next.line : this.record.line;
    return {
      next: next && { offset: next.offset, line: next.line },
      rows,
      rejected,
      rejects: this.rejects,
      lineAfter,
    };
  }

  /** Ends the current record with `tail`; returns a checkpoint when the invocation must stop. */
  private async takeRecord(tail: Buffer): Promise<Checkpoint | null> {
    const { offset, line, parts } = this.record;
    const length = this.record.length + tail.length;
    // Only a quote inside it can have put a range start inside quotes (the record starts outside them).
    if (length > this.longestRecord && (this.record.quoted || tail.includes(this.dialect.quote!))) {
      throw recordTooLong(offset, line, length);
    }
    const raw = length > MAX_RECORD_BYTES ? null : parts.length ? Buffer.concat([...parts, tail]) : tail;
    this.record = { offset: offset + length, line: this.params.from.line + this.scanner.lines, parts: [], length: 0 };
    if (raw === null) {
      const stoppedAt = await this.handleBlock(); // earlier records first: rejects and checkpoints keep file order
      if (stoppedAt) return stoppedAt;
      this.rows++;
      await this.reject({
        line,
        offset,
        length,
        raw: null,
        reason: `record is ${length} bytes, too large for a 400 KB item`,
      });
    } else if (!isBlankRecord(raw)) {
      this.block.push({ raw, offset, line });
      this.blockBytes += raw.length;
    }
    if (this.blockBytes < this.blockLimit) return null;
    const stoppedAt = await this.handleBlock();
    if (stoppedAt) return stoppedAt;
    return this.params.shouldStop() && this.record.offset < this.ownEnd ? this.record : null;
  }

  /** Maps the block and hands it on in file order; returns the first record left unhandled when told to stop. */
  private async handleBlock(): Promise<Checkpoint | null> {
    const records = this.block;
    const mapped = this.mapBlock(records);
    this.block = [];
    this.blockBytes = 0;
    this.blockLimit = Math.min(BLOCK_BYTES, this.blockLimit * 2);
    const { sink, shouldStop } = this.params;
    for (let i = 0; i < records.length; i++) {
      if (i > 0 && i % STOP_CHECK_RECORDS === 0 && shouldStop()) return records[i];
      const { offset, line, raw } = records[i];
      const result = mapped[i];
      // Its place in the file: where the lane resumes if the sink stops before writing it (ItemSink.heldFrom).
      const at = { offset, line, rows: this.rows++, rejected: this.rejected, bytes: raw.length };
      if (result.ok) {
        const queued = sink.add(result.item, result.key, at);
        if (queued) await queued;
      } else await this.reject({ line, offset, raw, length: raw.length, reason: result.reason });
    }
    return null;
  }

  private async reject(row: RejectedRow): Promise<void> {
    this.rejected++;
    if (this.params.reject) await this.params.reject(row);
    else this.rejects.push(row);
  }
}

/**
 * Drains `sink` and says where the invocation ends: at `stoppedAt` with `counts`, or, when the sink stopped sending (a
 * pause, the deadline) before writing every row, at its first unwritten row with the counts before it (the next
 * invocation reads, and counts, the rest). Every layout's importer ends with it.
 */
export async function drainSink(
  sink: ItemSink,
  stoppedAt: Checkpoint | null,
  counts: { readonly rows: number; readonly rejected: number },
): Promise<{ next: Checkpoint | null; rows: number; rejected: number }> {
  await sink.flush();
  const held = sink.heldFrom;
  if (!held) return { next: stoppedAt, rows: counts.rows, rejected: counts.rejected };
  return { next: { offset: held.offset, line: held.line }, rows: held.rows, rejected: held.rejected };
}
