import type { ChunkProgress, ImportChunkEvent } from '../request/workflow-payloads.js';
import { executionOutputPrefix } from '../request/workflow-payloads.js';
import { putObject, sendBatchWrite, sendGetObject } from '../runtime/aws-io.js';
import { DEFAULT_WRITE_CONFIG, type WriteConfig } from '../runtime/config.js';
import { fitStopMargin, stopDeadline, type LambdaContextLike, type StopDeadline } from '../runtime/lambda-context.js';
import { createLogger, type Logger } from '../runtime/logger.js';
import { withDefaultWiring, type Wiring } from '../runtime/wiring.js';
import { readRange } from '../source/s3-range-reader.js';
import { importChunk } from './chunk-importer.js';
import { chunkStopMarginMs, createImportSink } from './import-sink.js';
import { importMetricsPublisher } from './import-metrics.js';
import { formatRejects } from './rejects.js';

/** When this invocation stops: the write path's margin (write/stop-margin.ts), fitted to the invocation. */
function importDeadline({ job, chunk }: ImportChunkEvent, write: WriteConfig, context: LambdaContextLike, log: Logger): StopDeadline {
  const requiredMs = chunkStopMarginMs(job, chunk, write);
  const { marginMs, fits } = fitStopMargin(requiredMs, context.getRemainingTimeInMillis());
  if (!fits) {
    log.warn('timeout too short for the write retry policy: a throttled batch may outlast it', {
      requiredMarginMs: requiredMs, marginMs, suggestedTimeoutMs: 2 * requiredMs,
    });
  }
  return stopDeadline(context, marginMs);
}

/** ImportChunk task: import one chunk from its checkpoint; counts add up over checkpoint loops. */
export function createImportHandler({ s3, dynamodb, config }: Wiring) {
  const getObject = sendGetObject(s3);
  const batchWrite = sendBatchWrite(dynamodb);
  const write = config.write ?? DEFAULT_WRITE_CONFIG;
  return async (event: ImportChunkEvent, context: LambdaContextLike): Promise<ChunkProgress> => {
    const { job, chunk, chunkIndex, progress } = event;
    const { bucket, key, table } = job.request;
    const log = createLogger({ bucket, key, table, execution: job.executionName, chunk: chunkIndex });
    const from = progress?.next ?? { offset: chunk.start, line: chunk.line };
    const source = { bucket, key, etag: job.etag };
    const deadline = importDeadline(event, write, context, log);
    const { sink, writer } = createImportSink(job, chunk, batchWrite, { write, stopping: deadline.signal });
    const metrics = importMetricsPublisher(config, event, writer); // one EMF line per invocation, failed or not
    const result = await importChunk({
      job,
      chunk,
      from,
      read: (start, end) => readRange(getObject, source, start, end),
      sink,
      shouldStop: deadline.reached,
    }).finally(deadline.dispose).catch(metrics.failed);
    if (result.rejects.length > 0) {
      const rejectsKey = `${executionOutputPrefix(config.rejectsPrefix, job.executionName)}/${from.offset}.csv`;
      await putObject(s3, bucket, rejectsKey, formatRejects(result.rejects), 'text/csv');
    }
    metrics.done(result.rejected);
    log.info('chunk progress', {
      from: from.offset, next: result.next?.offset ?? null, rows: result.rows, written: writer.written, rejected: result.rejected,
    });
    return {
      next: result.next,
      rows: (progress?.rows ?? 0) + result.rows,
      written: (progress?.written ?? 0) + writer.written,
      rejected: (progress?.rejected ?? 0) + result.rejected,
    };
  };
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createImportHandler);
