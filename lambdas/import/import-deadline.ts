import type { ImportChunkEvent } from '../contract/workflow-payloads.js';
import type { WriteConfig } from '../environment/config.js';
import {
  fitStopMargin,
  stopDeadline,
  type LambdaContextLike,
  type StopDeadline,
} from '../environment/lambda-context.js';
import type { Logger } from '../observability/logger.js';
import { chunkStopMarginMs } from './import-sink.js';

/** When this invocation stops: the write path's margin (write/stop-margin.ts), fitted to the invocation. */
export function importDeadline(
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
