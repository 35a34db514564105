import { BatchWriter, DEFAULT_MAX_IN_FLIGHT, type SendBatchWrite } from '../write/batch-writer.js';
import { DryRunSink } from '../write/dry-run-sink.js';
import { indexesHolding, writeUnitsOf } from '../write/write-units.js';
import { itemSize } from '../formats/attribute-size.js';
import { keyOf } from '../write/item-requests.js';
import type { Item, ItemSink } from '../write/item-sink.js';
import { chunkWriteRate, type RateLimiter } from '../write/rate-limiter.js';
import { keepLater, SpreadingSink, type CombineRows } from '../write/spreading-sink.js';
import { StatementWriter, type StatementWriteCalls } from '../write/statement-writer.js';
import { importStopMarginMs } from '../write/stop-margin.js';
import type { WriteConfig } from '../environment/config.js';
import type { Chunk, ImportCounts, ImportJob, KeyAttribute } from '../contract/workflow-payloads.js';
import type { WriteMode } from '../contract/import-request.js';

export interface ImportSinkOptions {
  readonly write: WriteConfig;
  /** Aborted when the invocation stops at its deadline (see BatchWriterOptions.stopping). */
  readonly stopping?: AbortSignal;
  /**
   * The limiter the writer's requests wait on: this chunk's share of `maxWriteRate`, followed live when the ledger
   * holds the import's settings (import-chunk.ts makes it). @default - none: requests go out unthrottled
   */
  readonly limiter?: RateLimiter;
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
 * The import's write calls: BatchWriteItem for put and delete; BatchExecuteStatement for insert and update, with
 * PutItem and UpdateItem for their items that cannot be statements.
 */
export interface ImportWriteCalls extends StatementWriteCalls {
  send: SendBatchWrite;
}

/** What the metrics read of the writer (import-metrics.ts): the same for every mode. */
export interface WriterStats {
  readonly written: number;
  readonly throttledRetries: number;
  readonly unprocessedRetries: number;
  readonly inFlightLimit: number;
}

/** One chunk invocation's write path: where items go, what the metrics read, and the counts of the mode. */
export interface ImportSink {
  readonly sink: ItemSink;
  readonly writer: WriterStats;
  readonly limiter?: RateLimiter;
  /** This invocation's counts of the mode, once the sink is flushed (rows and rejects are the importer's). */
  counts(): Omit<ImportCounts, 'rows' | 'rejected'>;
}

/** How a mode combines two rows of one key held back together (write/spreading-sink.ts CombineRows). */
const COMBINE_ROWS: Record<WriteMode, CombineRows> = {
  put: keepLater,
  insert: (earlier) => earlier,
  update: (earlier, later) => ({ ...earlier, ...later }),
  delete: keepLater,
};

/** The request mode of a request from state written before write modes (no `mode`): put. */
export function writeModeOf(job: ImportJob): WriteMode {
  return job.request.mode ?? 'put';
}

/**
 * The write path of one chunk invocation, by the request's mode: a BatchWriter of PutRequests (`put`) or
 * DeleteRequests (`delete`), a StatementWriter of PartiQL INSERTs (`insert`) or UPDATEs (`update`), or for a
 * dry run a DryRunSink that sends nothing. Its requests wait on this chunk's share of `maxWriteRate` (when set);
 * a SpreadingSink goes in front when the request asks for `spread`.
 */
export function createImportSink(
  job: ImportJob,
  chunk: Chunk,
  calls: ImportWriteCalls,
  options: ImportSinkOptions,
): ImportSink {
  const { limiter } = options;
  const mode = writeModeOf(job);
  const common = {
    table: job.request.table,
    retry: options.write.retry,
    ...(options.stopping ? { stopping: options.stopping } : {}),
    ...(limiter ? { beforeSend: (items: number) => limiter.take(items) } : {}),
  };
  if (job.request.dryRun) {
    const indexes = job.indexes ?? [];
    const dry = new DryRunSink((item) => writeUnitsOf(itemSize(item), mode, indexesHolding(item, indexes)));
    const counts = () => ({ written: 0, skipped: 0, deleted: 0, writeUnits: dry.writeUnits });
    return { sink: dry, writer: dry, limiter, counts };
  }
  const writer =
    mode === 'insert' || mode === 'update'
      ? new StatementWriter({ ...common, mode, keys: job.keys, calls })
      : new BatchWriter({
          ...common,
          send: calls.send,
          maxInFlight: DEFAULT_MAX_IN_FLIGHT,
          ...deleteRequests(mode, job.keys),
        });
  const spread = job.request.spread ? new SpreadingSink(writer, undefined, COMBINE_ROWS[mode]) : null;
  const counts = () => modeCounts(mode, writer, spread?.absorbed ?? 0);
  return { sink: spread ?? writer, writer, limiter, counts };
}

function deleteRequests(mode: WriteMode, keys: readonly KeyAttribute[]) {
  return mode === 'delete' ? { toRequest: (item: Item) => ({ DeleteRequest: { Key: keyOf(item, keys) } }) } : {};
}

/**
 * Every row counted once (contract ImportCounts): rows combined with another row of their key before sending count
 * as skipped in put (replaced by the later row) and insert (the first row won), as written in update (their values
 * landed in the merge) and as deleted in delete.
 */
function modeCounts(mode: WriteMode, writer: BatchWriter | StatementWriter, absorbed: number) {
  const combined = absorbed + writer.replaced;
  const counts = { written: 0, skipped: 0, deleted: 0, writeUnits: 0 };
  if (mode === 'delete') return { ...counts, deleted: writer.written + combined };
  if (mode === 'update') return { ...counts, written: writer.written + combined };
  const skipped = combined + ('skipped' in writer ? writer.skipped : 0);
  return { ...counts, written: writer.written, skipped };
}
