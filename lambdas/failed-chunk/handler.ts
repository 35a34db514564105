import { SFNClient } from '@aws-sdk/client-sfn';
import { createContainerLogger } from '../observability/logger.js';
import { withNamedServiceErrors } from '../wiring/service-error-names.js';
import { chunkErrorOf, type StateError } from '../map-run/first-failed-chunk.js';

/** The FindFailedChunk task's input: the error the ImportChunks Map was caught with, and the execution. */
export interface FindFailedChunkEvent {
  readonly error: StateError;
  readonly executionArn: string;
}

/** What the handler is built from: a Step Functions client (the function's role may read this machine's Map Runs). */
export interface FailedChunkWiring {
  readonly sfn: SFNClient;
}

/**
 * FindFailedChunk task: replaces AWS's `States.ExceedToleratedFailureThreshold` with the first failed chunk's own
 * error and cause, so ImportFailed fails the execution under the chunk's name (first-failed-chunk.ts).
 */
export function createFailedChunkHandler({ sfn }: FailedChunkWiring) {
  const logger = createContainerLogger();
  return async (event: FindFailedChunkEvent): Promise<StateError> => {
    const named = await chunkErrorOf(sfn, event.executionArn, event.error);
    logger.info('failed chunk', { execution: event.executionArn, mapError: event.error.Error, error: named.Error });
    return named;
  };
}

let built: ReturnType<typeof createFailedChunkHandler> | undefined;

/** The deployed handler: one client per container, from the SDK's configuration chain. */
export const handler = withNamedServiceErrors((event: FindFailedChunkEvent): Promise<StateError> =>
  (built ??= createFailedChunkHandler({ sfn: new SFNClient({}) }))(event),
);
