import { BatchWriter, type SendBatchWrite } from '../write/batch-writer.js';
import type { ItemSink } from '../write/item-sink.js';
import { chunkWriteRate, createChunkLimiter, systemClock, type Clock } from '../write/rate-limiter.js';
import { SpreadingSink } from '../write/spreading-sink.js';
import type { Chunk, ImportJob } from '../request/workflow-payloads.js';

/**
 * The write path of one chunk invocation: a BatchWriter whose requests wait on this chunk's share of
 * `maxWriteRate` (when set), behind a SpreadingSink when the request asks for `spread`.
 */
export function createImportSink(
  job: ImportJob,
  chunk: Chunk,
  send: SendBatchWrite,
  clock: Clock = systemClock,
): { sink: ItemSink; writer: BatchWriter } {
  const { maxConcurrency, chunkCount, dataBytes } = job;
  const rate = chunkWriteRate({ maxWriteRate: job.request.maxWriteRate, maxConcurrency, chunkCount, dataBytes, chunkBytes: chunk.end - chunk.start });
  const limiter = createChunkLimiter(rate, clock);
  const writer = new BatchWriter({
    table: job.request.table,
    send,
    ...(limiter ? { beforeSend: (items: number) => limiter.take(items) } : {}),
  });
  return { sink: job.request.spread ? new SpreadingSink(writer) : writer, writer };
}
