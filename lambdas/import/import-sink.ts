import { DEFAULT_MAX_IN_FLIGHT } from '../write/batch-writer.js';
import { itemSize } from '../formats/attribute-size.js';
import type { ItemSink } from '../write/item-sink.js';
import { chunkWriteRate, type RateLimiter } from '../write/rate-limiter.js';
import { importStopMarginMs } from '../write/stop-margin.js';
import type { WriteCalls, WriteCounts, WriterStats } from '../write/write-mode.js';
import { openWritePath, WRITE_MODE_TABLE, writeModeEntry, type WriteModeTable } from '../write/write-modes.js';
import type { WriteConfig } from '../environment/config.js';
import type { Chunk, ImportJob } from '../contract/workflow-payloads.js';
import type { DiffUpload } from '../sync-compare/diff-file.js';

export type { WriterStats } from '../write/write-mode.js';

export interface ImportSinkOptions {
  readonly write: WriteConfig;
  /** Aborted when the invocation stops at its deadline (see BatchWriterOptions.stopping). */
  readonly stopping?: AbortSignal;
  /** True once the lane must stop sending at once: its deadline, a pause (WriterOptions.halt). @default - never */
  readonly halt?: () => boolean;
  /**
   * The limiter the writer's requests wait on: this chunk's share of `maxWriteRate`, followed live when the ledger
   * holds the import's settings (import-chunk.ts makes it). @default - none: requests go out unthrottled
   */
  readonly limiter?: RateLimiter;
  /** The modes the request's `mode` names (the wiring's). @default WRITE_MODE_TABLE */
  readonly modes?: WriteModeTable;
  /** Opens this invocation's diff file, for a dry run of a mode that reads the table (`sync`). @default - none */
  readonly openDiff?: () => DiffUpload;
}

/** This chunk's share of `maxWriteRate` (the request's, or the live one) in items/s (0 when uncapped). */
export function chunkRate(job: ImportJob, chunk: Chunk, maxWriteRate = job.request.maxWriteRate): number {
  const { maxConcurrency, chunkCount, dataBytes } = job;
  return chunkWriteRate({
    maxWriteRate,
    maxConcurrency,
    chunkCount,
    dataBytes,
    chunkBytes: chunk.end - chunk.start,
  });
}

/** The stop margin this chunk's write path needs (write/stop-margin.ts). */
export function chunkStopMarginMs(job: ImportJob, chunk: Chunk, write: WriteConfig): number {
  return importStopMarginMs({ ...write, maxInFlight: DEFAULT_MAX_IN_FLIGHT, writeRate: chunkRate(job, chunk) });
}

/** One chunk invocation's write path: where items go, what the metrics read, and the counts of the mode. */
export interface ImportSink {
  readonly sink: ItemSink;
  readonly writer: WriterStats;
  readonly limiter?: RateLimiter;
  /** This invocation's counts of the mode, once the sink is flushed (rows and rejects are the importer's). */
  counts(): WriteCounts;
}

/**
 * The write path of one chunk invocation: the writer of the request's mode (write/write-modes.ts), or for a dry run
 * one that sends nothing; its requests wait on this chunk's share of `maxWriteRate` (when set), and a SpreadingSink
 * goes in front when the request asks for `spread`.
 *
 * @example
 * ```ts
 * const { writeTransport } = createWiring();
 * const { sink, counts } = createImportSink(job, chunk, writeTransport, { write: DEFAULT_WRITE_CONFIG });
 * for (const { item, key } of rows) {
 *   const queued = sink.add(item, key); // a promise only when the caller must wait before adding more
 *   if (queued) await queued;
 * }
 * await sink.flush();
 * const { written, skipped, deleted } = counts(); // the counts of the request's mode
 * ```
 */
export function createImportSink(
  job: ImportJob,
  chunk: Chunk,
  calls: WriteCalls,
  options: ImportSinkOptions,
): ImportSink {
  const { limiter } = options;
  const entry = writeModeEntry(job.request.mode, options.modes ?? WRITE_MODE_TABLE);
  const writerOptions = {
    table: job.request.table,
    keys: job.keys,
    calls,
    consistentRead: job.request.consistentRead === true,
    retry: options.write.retry,
    ...(options.openDiff ? { openDiff: options.openDiff } : {}),
    ...(options.stopping ? { stopping: options.stopping } : {}),
    ...(options.halt ? { halt: options.halt } : {}),
    ...(limiter ? { beforeSend: (items: number) => limiter.take(items) } : {}),
  };
  const { dryRun, spread } = job.request;
  const path = openWritePath(entry, writerOptions, { dryRun, spread, indexes: job.indexes ?? [], itemBytes: itemSize });
  return { ...path, limiter };
}
