import type { ChunkProgress, ImportChunkEvent } from '../contract/workflow-payloads.js';
import { executionOutputPrefix } from '../contract/workflow-payloads.js';
import { deleteObject, putObject, sendGetObject } from '../wiring/aws-io.js';
import { DEFAULT_WRITE_CONFIG, type WriteConfig } from '../environment/config.js';
import {
  fitStopMargin,
  stopDeadline,
  type LambdaContextLike,
  type StopDeadline,
} from '../environment/lambda-context.js';
import { createContainerLogger, invocationLogger, type Logger } from '../observability/logger.js';
import { createImportMetrics } from '../observability/metrics.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { corruptSourceError } from '../source/object-data.js';
import { importChunk } from './chunk-importer.js';
import { chunkReader, type ChunkReader } from './chunk-reader.js';
import { importMetricsPublisher } from './import-metrics.js';
import { chunkStopMarginMs, createImportSink } from './import-sink.js';
import { formatRejects, type RejectedRow } from './rejects.js';

/** When this invocation stops: the write path's margin (write/stop-margin.ts), fitted to the invocation. */
function importDeadline(
  { job, chunk }: ImportChunkEvent,
  write: WriteConfig,
  context: LambdaContextLike,
  log: Logger,
): StopDeadline {
  const requiredMs = chunkStopMarginMs(job, chunk, write);
  const { marginMs, fits } = fitStopMargin(requiredMs, context.getRemainingTimeInMillis());
  if (!fits) {
    log.warn('timeout too short for the write retry policy: a throttled batch may outlast it', {
      requiredMarginMs: requiredMs,
      marginMs,
      suggestedTimeoutMs: 2 * requiredMs,
    });
  }
  return stopDeadline(context, marginMs);
}

/**
 * Rejects of one invocation go to `<rejectsPrefix>/<execution>/<offset>.csv`, named by where the invocation
 * started; with several objects, `<object index>-<offset>.csv`, since offsets repeat across objects.
 */
function rejectsKey(rejectsPrefix: string, event: ImportChunkEvent, offset: number): string {
  const { job, chunk } = event;
  const name = job.sources.objects.length > 1 ? `${chunk.object}-${offset}` : `${offset}`;
  return `${executionOutputPrefix(rejectsPrefix, job.executionName)}/${name}.csv`;
}

/** The rows of this invocation to keep: the mapper's rejects, and where a compressed object broke off, if it did. */
function rejectedRows(rejects: RejectedRow[], reader: ChunkReader): RejectedRow[] {
  const damage = reader.damage();
  if (!damage) return rejects;
  const reason = `${reader.compression} data truncated or corrupt here (${damage.message}): the rest of the object was not read`;
  return [...rejects, { line: damage.line, offset: damage.offset, length: 0, raw: Buffer.alloc(0), reason }];
}

/** Counts of the chunk so far: the earlier invocations' (from the checkpoint loop) plus this one's. */
function addCounts(progress: ChunkProgress | undefined, rows: number, written: number, rejected: number) {
  return {
    rows: (progress?.rows ?? 0) + rows,
    written: (progress?.written ?? 0) + written,
    rejected: (progress?.rejected ?? 0) + rejected,
  };
}

/** ImportChunk task: import one chunk from its checkpoint; counts add up over checkpoint loops. */
export function createImportHandler({ s3, batchWrites, config }: Wiring) {
  const getObject = sendGetObject(s3);
  const batchWrite = batchWrites.send.bind(batchWrites);
  const write = config.write ?? DEFAULT_WRITE_CONFIG;
  const containerLogger = createContainerLogger();
  const containerMetrics = createImportMetrics();
  return async (event: ImportChunkEvent, context: LambdaContextLike): Promise<ChunkProgress> => {
    const { job, chunk, chunkIndex, progress } = event;
    const { bucket, table } = job.request;
    const from = progress?.next ?? { offset: chunk.start, line: chunk.line };
    const reader = chunkReader(job, chunk, from, getObject);
    const keys = { bucket, key: reader.key, table, execution: job.executionName, chunk: chunkIndex };
    const log = invocationLogger(containerLogger, context, keys);
    const deadline = importDeadline(event, write, context, log);
    const { sink, writer } = createImportSink(job, chunk, batchWrite, { write, stopping: deadline.signal });
    const metrics = importMetricsPublisher(config, containerMetrics, event, writer); // one line per invocation, failed or not
    const { read } = reader;
    const result = await importChunk({ job, chunk: reader.chunk, from, read, sink, shouldStop: deadline.reached })
      .finally(deadline.dispose)
      .catch(metrics.failed);
    const rejects = rejectedRows(result.rejects, reader);
    const rejectsAt = rejects.length > 0 ? rejectsKey(config.rejectsPrefix, event, from.offset) : null;
    if (rejectsAt) {
      const body = formatRejects(rejects, reader.key);
      await putObject(s3, bucket, rejectsAt, body, 'text/csv', config.bucketKmsKeyArn);
    }
    const counts = addCounts(progress, result.rows, writer.written, result.rejected);
    metrics.done(result.rejected);
    log.info('chunk progress', { from: from.offset, next: result.next?.offset ?? null, ...counts });
    const damage = reader.damage();
    if (damage) {
      const done = `the ${counts.rows} rows before it were read and ${counts.written} of them written`;
      const kept = `(${counts.rejected} rejected); rejects in s3://${bucket}/${rejectsAt}`;
      throw corruptSourceError(reader.where, reader.compression, damage, `${done} ${kept}`);
    }
    // The staged piece has served its purpose; the lifecycle rule on the staging prefix is only the backstop.
    if (result.next === null && reader.stagedPiece) await deleteObject(s3, bucket, reader.stagedPiece);
    return { next: result.next, ...counts };
  };
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createImportHandler);
