import type { FindFailedChunkEvent, StateError } from '../contract/task-payloads.js';
import { invocationLogger, type createContainerLogger } from '../observability/logger.js';

/** The I/O FindFailedChunk needs (find-failed-chunk-io.ts binds it to Step Functions). */
export interface FindFailedChunkIo {
  /** The error a failed ImportChunks Map should fail the execution with (map-run/first-failed-chunk.ts chunkErrorOf). */
  chunkErrorOf(executionArn: string, error: StateError): Promise<StateError>;
}

/** What FindFailedChunk runs with besides its event and I/O. */
export interface FindFailedChunkOptions {
  readonly logger: ReturnType<typeof createContainerLogger>;
  /** The invocation's Lambda context (its request id goes on the log line). */
  readonly context: object;
}

/**
 * FindFailedChunk task: replaces AWS's `States.ExceedToleratedFailureThreshold` with the first failed chunk's own
 * error and cause, so ImportFailed fails the execution under the chunk's name; any other error passes as it is.
 * @example
 * const named = await runFindFailedChunk({ error, executionArn }, findFailedChunkIo(sfn), { logger, context });
 */
export async function runFindFailedChunk(
  event: FindFailedChunkEvent,
  io: FindFailedChunkIo,
  options: FindFailedChunkOptions,
): Promise<StateError> {
  const named = await io.chunkErrorOf(event.executionArn, event.error);
  const logger = invocationLogger(options.logger, options.context, { execution: event.executionArn });
  logger.info('failed chunk', { mapError: event.error.Error, error: named.Error });
  return named;
}
