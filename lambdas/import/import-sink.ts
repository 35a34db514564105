import { BatchWriter, DEFAULT_MAX_IN_FLIGHT, type SendBatchWrite } from '../write/batch-writer.js';
import type { ItemSink } from '../write/item-sink.js';
import {
  chunkWriteRate,
  createChunkLimiter,
  createLiveLimiter,
  systemClock,
  type Clock,
  type RateLimiter,
} from '../write/rate-limiter.js';
import { SpreadingSink } from '../write/spreading-sink.js';
import { importStopMarginMs } from '../write/stop-margin.js';
import type { WriteConfig } from '../environment/config.js';
import type { Chunk, ImportJob } from '../contract/workflow-payloads.js';

export interface ImportSinkOptions {
  readonly write: WriteConfig;
  /** Aborted when the invocation stops at its deadline (see BatchWriterOptions.stopping). */
  readonly stopping?: AbortSignal;
  readonly clock?: Clock;
  /**
   * The import's rate can change while it runs (the ledger's live settings): the writer then always waits on a
   * limiter, uncapped until a rate is set. @default false
   */
  readonly live?: boolean;
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

/**
 * The write path of one chunk invocation: a BatchWriter whose requests wait on this chunk's share of
 * `maxWriteRate` (when set), behind a SpreadingSink when the request asks for `spread`.
 */
export function createImportSink(
  job: ImportJob,
  chunk: Chunk,
  send: SendBatchWrite,
  options: ImportSinkOptions,
): { sink: ItemSink; writer: BatchWriter; limiter?: RateLimiter } {
  const clock = options.clock ?? systemClock;
  const rate = chunkRate(job, chunk);
  const limiter = options.live ? createLiveLimiter(rate, clock) : createChunkLimiter(rate, clock);
  const writer = new BatchWriter({
    table: job.request.table,
    send,
    retry: options.write.retry,
    maxInFlight: DEFAULT_MAX_IN_FLIGHT,
    ...(options.stopping ? { stopping: options.stopping } : {}),
    ...(limiter ? { beforeSend: (items: number) => limiter.take(items) } : {}),
  });
  return { sink: job.request.spread ? new SpreadingSink(writer) : writer, writer, limiter };
}
