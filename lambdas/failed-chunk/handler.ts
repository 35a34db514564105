import type { FindFailedChunkEvent, StateError } from '../contract/task-payloads.js';
import { createContainerLogger } from '../observability/logger.js';
import type { TaskWiring } from '../wiring/wiring.js';
import { withWiring } from '../wiring/with-wiring.js';
import { findFailedChunkIo, findFailedChunkWiring } from './find-failed-chunk-io.js';
import { runFindFailedChunk } from './find-failed-chunk.js';

export type { FindFailedChunkEvent };

/** FindFailedChunk task: the failed Map's error, named after its first failed chunk (find-failed-chunk.ts). */
export function createFailedChunkHandler({ sfn }: Pick<TaskWiring, 'sfn'>) {
  const io = findFailedChunkIo(sfn);
  const logger = createContainerLogger();
  return (event: FindFailedChunkEvent, context: object = {}): Promise<StateError> =>
    runFindFailedChunk(event, io, { logger, context });
}

/** The deployed handler: one client per container. */
export const handler = withWiring(createFailedChunkHandler, findFailedChunkWiring);
