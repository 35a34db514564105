import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { ImportChunkEvent } from '../contract/workflow-payloads.js';
import type { LambdaConfig } from '../environment/config.js';
import { publishImportMetrics } from '../observability/metrics.js';
import type { WriterStats } from './import-sink.js';

/** The dimension value when the event carries no state machine (a handler invoked outside the workflow). */
const UNKNOWN_STATE_MACHINE = 'unknown';

/**
 * One EMF line per ImportChunk invocation, at its end: `done(rejected)` after a chunk invocation that
 * returns, `failed` (a `.catch` handler that rethrows) after one that fails, so the retries that led to a
 * BatchWriteFailedError still show. Counts are this invocation's, not the chunk's running totals.
 */
export function importMetricsPublisher(
  config: LambdaConfig,
  metrics: Metrics,
  { job, chunkIndex }: ImportChunkEvent,
  writer: WriterStats,
) {
  const publish = (rejected: number) => {
    if (!config.emitMetrics) return;
    publishImportMetrics(metrics, {
      stateMachine: job.stateMachine ?? UNKNOWN_STATE_MACHINE,
      values: {
        ItemsWritten: writer.written,
        ItemsRejected: rejected,
        ThrottledRetries: writer.throttledRetries,
        UnprocessedRetries: writer.unprocessedRetries,
        InFlightLimit: writer.inFlightLimit,
      },
      metadata: { execution: job.executionName, table: job.request.table, chunk: chunkIndex },
    });
  };
  return {
    done: publish,
    /** Rows rejected before a failure were not recorded (the rejects file is written at the end), so 0. */
    failed: (error: unknown): never => {
      publish(0);
      throw error;
    },
  };
}
